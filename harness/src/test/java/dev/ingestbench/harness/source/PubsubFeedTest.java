package dev.ingestbench.harness.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.emulator.PubsubEmulator;
import java.util.BitSet;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Against the real Pub/Sub emulator (pstest): each job's own topic is filled when it starts, topped
 * up when what it has waiting falls below the low mark, left alone once it stops, and a job not
 * started is fed nothing. The job's reading is stood in for by its accounted-for count. 10 KB
 * messages: a Pull of 1,000 of them is over gRPC's default 4 MiB, which counting what a job left
 * must read.
 */
@Tag("e2e")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PubsubFeedTest {
  private static final long HIGH = 1_000;

  @Test
  void keepsEachRunningJobFedBetweenTheMarksAndNothingElse() throws Exception {
    Map<String, Long> accounted = new ConcurrentHashMap<>(Map.of("a", 0L, "b", 0L));
    try (PubsubEmulator emulator = PubsubEmulator.start();
        PubsubFeed feed =
            new PubsubFeed(
                emulator.hostAndPort(), "p", 10_000, "json", 1, () -> accounted::get, HIGH)) {
      feed.add("a", "rides-a");
      feed.add("b", "rides-b");
      feed.start("a");
      assertEquals(HIGH, feed.published("a"), "filled to the high mark when it starts");
      assertEquals(
          indexes(0, HIGH),
          SubscriptionBacklog.read(emulator.hostAndPort(), "projects/p/subscriptions/rides-a"));
      assertTrue(
          SubscriptionBacklog.read(emulator.hostAndPort(), "projects/p/subscriptions/rides-b")
              .isEmpty(),
          "a job not started is fed nothing");

      accounted.put("a", 400L); // 600 waiting: above the low mark (500), nothing is fed
      Thread.sleep(1_000);
      assertEquals(HIGH, feed.published("a"));

      accounted.put("a", 700L); // 300 waiting: topped up to 1,000 waiting
      awaitPublished(feed, "a", 1_700);
      Thread.sleep(1_000);
      assertEquals(1_700, feed.published("a"), "topped up once, to the high mark");

      feed.stop("a");
      accounted.put("a", 1_700L);
      Thread.sleep(1_000);
      assertEquals(1_700, feed.published("a"), "a stopped job is fed nothing more");
      assertEquals(0, feed.published("b"));

      PubsubFeed.Result result = feed.result();
      assertNull(result.failure());
      assertEquals(
          new PubsubFeed.Result.Job("projects/p/topics/rides-a", 1_700, 2, 300),
          result.jobs().get("a"));
      assertEquals(
          new PubsubFeed.Result.Job("projects/p/topics/rides-b", 0, 0, -1), result.jobs().get("b"));
    }
  }

  /**
   * A backlog fed in tranches ({@code upTo}): never more than the high mark waiting, every message
   * of the count published once, and then nothing more however little is waiting.
   */
  @Test
  void aBoundedFeedPublishesItsCountInTranchesAndThenNoMore() throws Exception {
    Map<String, Long> accounted = new ConcurrentHashMap<>(Map.of("a", 0L));
    try (PubsubEmulator emulator = PubsubEmulator.start();
        PubsubFeed feed =
            new PubsubFeed(emulator.hostAndPort(), "p", 500, "json", 1, () -> accounted::get, HIGH)
                .upTo(2_500)) {
      assertTrue(feed.bounded());
      feed.add("a", "rides-a");
      feed.start("a");
      assertEquals(HIGH, feed.published("a"), "the first tranche: the high mark");
      accounted.put("a", 600L);
      awaitPublished(feed, "a", 1_600);
      accounted.put("a", 1_200L);
      awaitPublished(feed, "a", 2_200);
      accounted.put("a", 1_800L);
      awaitPublished(feed, "a", 2_500); // the last tranche stops at the count
      accounted.put("a", 2_500L);
      Thread.sleep(1_000);
      assertEquals(2_500, feed.published("a"), "nothing past the count");
      assertEquals(
          indexes(0, 2_500),
          SubscriptionBacklog.read(emulator.hostAndPort(), "projects/p/subscriptions/rides-a"),
          "every index of the count once");
      assertEquals(4, feed.result().jobs().get("a").topUps());
    }
  }

  private static void awaitPublished(PubsubFeed feed, String job, long expected)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (feed.published(job) < expected && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertEquals(expected, feed.published(job));
  }

  private static BitSet indexes(long from, long to) {
    BitSet b = new BitSet();
    b.set((int) from, (int) to);
    return b;
  }
}
