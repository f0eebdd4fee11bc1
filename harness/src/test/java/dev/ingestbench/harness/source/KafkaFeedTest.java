package dev.ingestbench.harness.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.kafka.LocalKafka;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Against a real local Kafka broker: the feed keeps each fed job's unread messages between low and
 * high, as the publisher's records (event index headers 0..n-1), and a stopped job keeps the count
 * it was fed until it stopped.
 */
@Tag("e2e")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class KafkaFeedTest {
  private static final String TOPIC = "rides";

  @Test
  void topsTheTopicUpAsTheJobsReadAndVerifiesAStoppedJobOnWhatItWasFed(@TempDir Path dir)
      throws Exception {
    try (LocalKafka kafka =
        LocalKafka.start(dir.resolve("data"), dir.resolve("kafka.log"), 2, "512m")) {
      kafka.createTopic(TOPIC, 2);
      Map<String, Long> accounted = new ConcurrentHashMap<>(Map.of("a", 0L, "b", 0L));
      try (KafkaFeed feed =
          new KafkaFeed(
              kafka.bootstrapServers(),
              TOPIC,
              88,
              "avro",
              () -> job -> accounted.get(job),
              1_000)) {
        feed.add("a");
        feed.add("b");
        feed.start("a");
        assertEquals(1_000, feed.published("a"), "filled up to high at once");

        accounted.put("a", 700L); // 300 unread, below low (500): topped up to 1,000 unread
        awaitPublished(feed, "a", 1_700);
        feed.stop("a");
        feed.stopped("a");
        feed.start("b"); // b has all 1,700 unread: nothing to add
        assertEquals(1_700, feed.published("b"));

        accounted.put("b", 1_600L); // 100 unread by b: topped up for b; a is no longer fed
        awaitPublished(feed, "b", 2_600);
        assertEquals(
            1_700, feed.published("a"), "a is verified on what was published until it stopped");
        assertNull(feed.failure());
        KafkaFeed.Result result = feed.result();
        assertEquals(2_600, result.published());
        assertEquals(300, result.jobs().get("a").minDepth());
      }
      BitSet all = ConsumerGroupBacklog.read(kafka.bootstrapServers(), TOPIC, "nobody");
      assertEquals(2_600, all.cardinality(), "every record carries its event index");
      assertEquals(2_600, all.nextClearBit(0), "indexes 0..2,599, each once");
    }
  }

  private static void awaitPublished(KafkaFeed feed, String job, long expected)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (feed.published(job) < expected && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertEquals(expected, feed.published(job));
    assertTrue(feed.failure() == null, String.valueOf(feed.failure()));
  }
}
