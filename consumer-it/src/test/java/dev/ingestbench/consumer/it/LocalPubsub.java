package dev.ingestbench.consumer.it;

import com.google.cloud.pubsub.v1.Publisher;
import com.google.protobuf.ByteString;
import com.google.pubsub.v1.PubsubMessage;
import com.google.pubsub.v1.TopicName;
import dev.ingestbench.emulator.PubsubEmulator;
import dev.ingestbench.publisher.PublisherOptions;
import dev.ingestbench.publisher.PublisherPipeline;
import dev.ingestbench.pubsub.PubsubChannels;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.PipelineResult;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Test helper and JUnit extension: a Pub/Sub emulator for one test class (register it as a static
 * field with {@code @RegisterExtension}; started before the class's first test, stopped after its
 * last, also when a test fails), and publishing through the real publisher pipeline or hand-made
 * bad messages to it.
 */
final class LocalPubsub implements BeforeAllCallback, AfterAllCallback {
  static final String PROJECT = "ingestbench-test";
  private PubsubEmulator emulator;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    emulator = PubsubEmulator.start();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (emulator != null) {
      emulator.close();
      emulator = null;
    }
  }

  String host() {
    return emulator.hostAndPort();
  }

  /**
   * Creates topic and subscription and publishes {@code count} events; returns how many were
   * acknowledged.
   */
  long publish(String topic, String subscription, long count) throws Exception {
    return publish(topic, subscription, count, 500);
  }

  /** As {@link #publish(String, String, long)}, with messages of {@code messageSizeBytes}. */
  long publish(String topic, String subscription, long count, int messageSizeBytes)
      throws Exception {
    PipelineOptionsFactory.register(PublisherOptions.class);
    PublisherOptions options =
        PipelineOptionsFactory.fromArgs(
                "--pubsubEmulatorHost=" + host(),
                "--project=" + PROJECT,
                "--topic=" + topic,
                "--createSubscriptions=" + subscription,
                "--numMessages=" + count,
                "--publisherShards=2",
                "--messageSizeBytes=" + messageSizeBytes)
            .as(PublisherOptions.class);
    PipelineResult result = PublisherPipeline.run(options);
    return PublisherPipeline.counter(result, "messages_published");
  }

  /** Publishes one raw message, as a misbehaving producer would. */
  void publishRaw(String topic, String payload, Map<String, String> attributes) throws Exception {
    publishRaw(topic, payload.getBytes(StandardCharsets.UTF_8), attributes);
  }

  /** Publishes {@code payload} as it is: bytes no publisher of this project would send. */
  void publishRaw(String topic, byte[] payload, Map<String, String> attributes) throws Exception {
    try (PubsubChannels channels = PubsubChannels.forEmulatorHost(host())) {
      Publisher publisher =
          Publisher.newBuilder(TopicName.of(PROJECT, topic))
              .setChannelProvider(channels.channelProvider())
              .setCredentialsProvider(channels.credentialsProvider())
              .build();
      try {
        publisher
            .publish(
                PubsubMessage.newBuilder()
                    .setData(ByteString.copyFrom(payload))
                    .putAllAttributes(attributes)
                    .build())
            .get(30, TimeUnit.SECONDS);
      } finally {
        publisher.shutdown();
        publisher.awaitTermination(30, TimeUnit.SECONDS);
      }
    }
  }
}
