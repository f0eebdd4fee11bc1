package dev.ingestbench.harness.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.SendSchedule;
import dev.ingestbench.events.MessageFormat;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.kafka.LocalKafka;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
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
              1,
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

  @Test
  void thePacedPublisherSendsEachIndexOnceToKafkaOnItsSchedule(@TempDir Path dir) throws Exception {
    try (LocalKafka kafka =
        LocalKafka.start(dir.resolve("data"), dir.resolve("kafka.log"), 2, "512m")) {
      KafkaEventSender.createTopic(kafka.bootstrapServers(), "paced", 2);
      KafkaEventSender.createTopic(kafka.bootstrapServers(), "paced", 2); // exists: no error
      List<SendSchedule> steps = new CopyOnWriteArrayList<>();
      long published;
      try (PacedPublisher p =
          new PacedPublisher(
              new KafkaEventSender(kafka.bootstrapServers(), "paced"),
              new TaxiRideGenerator(1, 88, MessageFormat.AVRO),
              steps::add)) {
        // Waits on what was sent, not on the clock: a busy machine's broker may take seconds to
        // answer the producer's first metadata request, which no rate can make up.
        long started = System.nanoTime();
        p.rate(2_000);
        awaitHanded(p, 1_000);
        p.rate(4_000);
        // Sends after the change, not a count: a publisher catching up after a slow first
        // metadata answer may have sent 1,500 before its loop read the new rate.
        awaitHanded(p, Math.max(1_500, p.handed() + 500));
        long handed = p.handed();
        double seconds = (System.nanoTime() - started) / 1e9;
        // Paced, never ahead of its schedule: at most the faster rate over the time it ran.
        assertTrue(
            handed <= 4_000 * seconds + 100,
            handed + " sent in " + seconds + " s: ahead of 2,000 then 4,000 msg/s");
        p.stop(java.time.Duration.ofSeconds(30));
        assertNull(p.failure());
        published = p.acknowledged();
        assertEquals(p.handed(), published, "every record handed was acknowledged");
        assertTrue(published >= handed, "every record handed before the stop was published");
      }
      assertEquals(2, steps.size(), "one schedule step per rate: " + steps);
      assertEquals(2_000, steps.get(0).messagesPerSecond());
      assertEquals(0, steps.get(0).firstIndex());
      BitSet all = ConsumerGroupBacklog.read(kafka.bootstrapServers(), "paced", "nobody");
      assertEquals(published, all.cardinality(), "every record carries its event index");
      assertEquals(published, all.nextClearBit(0), "indexes 0..n-1, each once");
    }
  }

  private static void awaitHanded(PacedPublisher p, long expected) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (p.handed() < expected && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertTrue(p.handed() >= expected, "handed " + p.handed() + " of " + expected + " in 60 s");
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
