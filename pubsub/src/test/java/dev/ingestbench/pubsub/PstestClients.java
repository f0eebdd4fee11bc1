package dev.ingestbench.pubsub;

import com.google.cloud.pubsub.v1.Publisher;
import com.google.cloud.pubsub.v1.stub.GrpcSubscriberStub;
import com.google.cloud.pubsub.v1.stub.SubscriberStub;
import com.google.cloud.pubsub.v1.stub.SubscriberStubSettings;
import com.google.protobuf.ByteString;
import com.google.pubsub.v1.PubsubMessage;
import com.google.pubsub.v1.PullRequest;
import com.google.pubsub.v1.PullResponse;
import com.google.pubsub.v1.TopicName;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/** The clients the pstest tests talk to the emulator with: publish one message, pull at once. */
final class PstestClients {
  private PstestClients() {}

  /** Publishes one message to {@code topic} and waits for its acknowledgement. */
  static void publishOne(PubsubChannels channels, String topic) throws Exception {
    Publisher publisher = publisher(channels, topic);
    publisher
        .publish(PubsubMessage.newBuilder().setData(ByteString.copyFromUtf8("e")).build())
        .get(30, TimeUnit.SECONDS);
    publisher.shutdown();
  }

  /** Publishes messages "0" to "N-1", each acknowledged before the next is sent: in that order. */
  static void publishInOrder(PubsubChannels channels, String topic, int n) throws Exception {
    Publisher publisher = publisher(channels, topic);
    for (int i = 0; i < n; i++) {
      publisher
          .publish(PubsubMessage.newBuilder().setData(ByteString.copyFromUtf8("" + i)).build())
          .get(30, TimeUnit.SECONDS);
    }
    publisher.shutdown();
  }

  private static Publisher publisher(PubsubChannels channels, String topic) throws IOException {
    return Publisher.newBuilder(TopicName.parse(topic))
        .setChannelProvider(channels.channelProvider())
        .setCredentialsProvider(channels.credentialsProvider())
        .setRetrySettings(PublishRetries.publishOnce())
        .build();
  }

  static SubscriberStub subscriber(PubsubChannels channels) throws IOException {
    return GrpcSubscriberStub.create(
        SubscriberStubSettings.newBuilder()
            .setTransportChannelProvider(channels.channelProvider())
            .setCredentialsProvider(channels.credentialsProvider())
            .build());
  }

  /** Up to 10 messages waiting in {@code subscription} now, without waiting for more. */
  static PullResponse pull(SubscriberStub stub, String subscription) {
    return stub.pullCallable()
        .call(
            PullRequest.newBuilder()
                .setSubscription(subscription)
                .setMaxMessages(10)
                .setReturnImmediately(true)
                .build());
  }
}
