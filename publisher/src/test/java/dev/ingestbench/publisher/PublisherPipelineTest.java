package dev.ingestbench.publisher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.pubsub.v1.SubscriptionAdminClient;
import com.google.cloud.pubsub.v1.SubscriptionAdminSettings;
import com.google.pubsub.v1.PullResponse;
import dev.ingestbench.emulator.PubsubEmulator;
import dev.ingestbench.pubsub.PubsubChannels;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The publisher pipeline against the real emulator. */
@Tag("e2e")
// A long timeout: its Pub/Sub emulator may be the machine's first and build pstest.
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class PublisherPipelineTest {
  private static PubsubEmulator emulator;

  @BeforeAll
  @Timeout(value = 900, unit = TimeUnit.SECONDS)
  static void start() throws Exception {
    emulator = PubsubEmulator.start();
  }

  @AfterAll
  static void stop() {
    emulator.close();
  }

  private static PublisherOptions options(String... extra) {
    PipelineOptionsFactory.register(PublisherOptions.class);
    String[] base = {
      "--pubsubEmulatorHost=" + emulator.hostAndPort(), "--project=ingestbench-test"
    };
    String[] args = new String[base.length + extra.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    return PipelineOptionsFactory.fromArgs(args).as(PublisherOptions.class);
  }

  @Test
  void publishesEveryEventOnceWithItsIndexAndWritesTheResult(@TempDir Path dir) throws Exception {
    Path result = dir.resolve("result.json");
    PublisherPipeline.run(
        options(
            "--topic=pub-topic",
            "--createSubscriptions=pub-sub",
            "--numMessages=3000",
            "--firstEventIndex=1000",
            "--resultFile=" + result));
    JsonNode json = new ObjectMapper().readTree(result.toFile());
    assertEquals(3000, json.get("published").asLong());
    assertEquals(0, json.get("publish_failures").asLong());

    Set<Long> indexes = new HashSet<>();
    try (PubsubChannels channels = PubsubChannels.forEmulatorHost(emulator.hostAndPort());
        SubscriptionAdminClient subscriber =
            SubscriptionAdminClient.create(
                SubscriptionAdminSettings.newBuilder()
                    .setTransportChannelProvider(channels.channelProvider())
                    .setCredentialsProvider(channels.credentialsProvider())
                    .build())) {
      for (int attempt = 0; attempt < 50 && indexes.size() < 3000; attempt++) {
        PullResponse response =
            subscriber.pull("projects/ingestbench-test/subscriptions/pub-sub", 1000);
        response
            .getReceivedMessagesList()
            .forEach(
                m -> {
                  indexes.add(Long.parseLong(m.getMessage().getAttributesOrThrow("event_index")));
                  assertTrue(
                      Math.abs(m.getMessage().getData().size() - 500) <= 25, "message size ~500 B");
                });
      }
    }
    assertEquals(3000, indexes.size());
    assertEquals(1000L, indexes.stream().mapToLong(Long::longValue).min().orElseThrow());
    assertEquals(3999L, indexes.stream().mapToLong(Long::longValue).max().orElseThrow());
  }

  @Test
  void publishingToAMissingTopicFailsTheJobInsteadOfCountingSuccess() {
    Exception e =
        assertThrows(
            Exception.class,
            () ->
                PublisherPipeline.run(
                    options("--topic=no-such-topic", "--numMessages=10", "--publisherShards=1")));
    assertTrue(String.valueOf(e.getMessage()).contains("failed to publish"), e.toString());
  }
}
