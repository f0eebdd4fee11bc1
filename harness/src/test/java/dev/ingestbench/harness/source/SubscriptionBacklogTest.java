package dev.ingestbench.harness.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.cloud.pubsub.v1.stub.GrpcPublisherStub;
import com.google.cloud.pubsub.v1.stub.GrpcSubscriberStub;
import com.google.cloud.pubsub.v1.stub.PublisherStub;
import com.google.cloud.pubsub.v1.stub.PublisherStubSettings;
import com.google.cloud.pubsub.v1.stub.SubscriberStub;
import com.google.cloud.pubsub.v1.stub.SubscriberStubSettings;
import com.google.protobuf.ByteString;
import com.google.pubsub.v1.AcknowledgeRequest;
import com.google.pubsub.v1.PublishRequest;
import com.google.pubsub.v1.PubsubMessage;
import com.google.pubsub.v1.PullRequest;
import com.google.pubsub.v1.ReceivedMessage;
import dev.ingestbench.emulator.PubsubEmulator;
import dev.ingestbench.events.MessageAttributes;
import dev.ingestbench.pubsub.PubsubAdmin;
import dev.ingestbench.pubsub.PubsubChannels;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Against the real Pub/Sub emulator (pstest): what a stopped job left is counted and handed back.
 */
@Tag("e2e")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SubscriptionBacklogTest {
  private static final String TOPIC = "projects/p/topics/rides";
  private static final String SUBSCRIPTION = "projects/p/subscriptions/rides-a";

  @Test
  void countsEveryMessageStillInTheSubscriptionAndLeavesThemThere() throws Exception {
    try (PubsubEmulator emulator = PubsubEmulator.start();
        PubsubChannels channels = PubsubChannels.forEmulatorHost(emulator.hostAndPort());
        PublisherStub publisher =
            GrpcPublisherStub.create(
                PublisherStubSettings.newBuilder()
                    .setTransportChannelProvider(channels.channelProvider())
                    .setCredentialsProvider(channels.credentialsProvider())
                    .build());
        SubscriberStub subscriber =
            GrpcSubscriberStub.create(
                SubscriberStubSettings.newBuilder()
                    .setTransportChannelProvider(channels.channelProvider())
                    .setCredentialsProvider(channels.credentialsProvider())
                    .build())) {
      PubsubAdmin.ensureTopicAndSubscriptions(emulator.hostAndPort(), TOPIC, List.of(SUBSCRIPTION));
      PublishRequest.Builder batch = PublishRequest.newBuilder().setTopic(TOPIC);
      for (int i = 0; i < 2_500; i++) {
        batch.addMessages(
            PubsubMessage.newBuilder()
                .setData(ByteString.copyFromUtf8("{}"))
                .putAttributes(MessageAttributes.EVENT_INDEX, Integer.toString(i)));
      }
      batch.addMessages(PubsubMessage.newBuilder().setData(ByteString.copyFromUtf8("not ours")));
      publisher.publishCallable().call(batch.build());
      // A job read some: it acknowledged 300 of them and stopped.
      List<ReceivedMessage> read =
          subscriber
              .pullCallable()
              .call(
                  PullRequest.newBuilder()
                      .setSubscription(SUBSCRIPTION)
                      .setMaxMessages(300)
                      .build())
              .getReceivedMessagesList();
      subscriber
          .acknowledgeCallable()
          .call(
              AcknowledgeRequest.newBuilder()
                  .setSubscription(SUBSCRIPTION)
                  .addAllAckIds(read.stream().map(ReceivedMessage::getAckId).toList())
                  .build());

      BitSet left = SubscriptionBacklog.read(emulator.hostAndPort(), SUBSCRIPTION);

      long ackedOurs =
          read.stream()
              .filter(m -> m.getMessage().containsAttributes(MessageAttributes.EVENT_INDEX))
              .count();
      assertEquals(
          2_500 - ackedOurs,
          left.cardinality(),
          "every unacknowledged message, across several pulls");
      for (ReceivedMessage m : read) {
        String index = m.getMessage().getAttributesOrDefault(MessageAttributes.EVENT_INDEX, "");
        if (!index.isEmpty()) {
          assertEquals(
              false, left.get(Integer.parseInt(index)), "acknowledged " + index + " is gone");
        }
      }
      assertEquals(
          left,
          SubscriptionBacklog.read(emulator.hostAndPort(), SUBSCRIPTION),
          "counting hands every message back: a second count finds the same");
    }
  }
}
