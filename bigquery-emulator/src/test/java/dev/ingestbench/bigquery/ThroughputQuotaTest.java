package dev.ingestbench.bigquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ThroughputQuotaTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void burstsFreelyWhileTheBudgetLastsThenTricklesUntilTheWindowEnds() {
    // 1 MB/s over a 10 s window: a 10 MB budget.
    ThroughputQuota quota = new ThroughputQuota(1, 10);
    long now = 0;
    for (int i = 0; i < 10; i++) {
      assertEquals(0, quota.admit(1_000_000, now), "within the budget, append " + i);
    }
    // Over budget: 100 KB at 10% of 1 MB/s takes 1 s.
    assertEquals(SECOND, quota.admit(100_000, now));
    assertEquals(2 * SECOND, quota.admit(100_000, now));
    assertEquals(2, quota.throttledAppends());
    // 10 MB more is the next window's whole budget: it waits for the refill after that one.
    assertEquals(20 * SECOND, quota.admit(10_000_000, now));
    // That append landed at the refill: the new window's budget is spent (charged, not forgiven).
    assertTrue(
        quota.admit(1_000_000, 10 * SECOND) > 0, "the held bytes are charged to the new window");
    assertEquals(
        0, quota.admit(1_000_000, 40 * SECOND), "a whole window without appends refills it");
  }

  @Test
  void threeWritersHeldUntilTheRefillDoNotLiftTheAverage() {
    // Three jobs with 4 MB appends against 1 MB/s over 10 s windows, for 200 s.
    ThroughputQuota quota = new ThroughputQuota(1, 10);
    long[] next = new long[3];
    long bytes = 0;
    long end = 200 * SECOND;
    while (true) {
      int w = next[0] <= next[1] && next[0] <= next[2] ? 0 : next[1] <= next[2] ? 1 : 2;
      if (next[w] >= end) {
        break;
      }
      next[w] += quota.admit(4_000_000, next[w]) + SECOND / 100;
      bytes += 4_000_000;
    }
    // Within the quota times the time plus one 10 MB budget and the appends in flight.
    assertTrue(bytes <= 200 * 1_000_000L + 10_000_000 + 3 * 4_000_000, bytes + " bytes in 200 s");
  }

  @Test
  void averagedOverAWindowTheRateStaysAtTheQuota() {
    ThroughputQuota quota = new ThroughputQuota(1, 10);
    long now = 0;
    long bytes = 0;
    // A writer that sends 50 KB as fast as it is let through, for 30 s.
    while (now < 30 * SECOND) {
      now += quota.admit(50_000, now) + SECOND / 100;
      bytes += 50_000;
    }
    double mbPerSecond = bytes / (now / 1e9) / 1e6;
    assertTrue(mbPerSecond > 0.9 && mbPerSecond < 1.1, "average " + mbPerSecond + " MB/s");
  }

  @Test
  void zeroDisablesTheQuota() {
    assertEquals(0, new ThroughputQuota(0, 10).admit(Long.MAX_VALUE / 2, 0));
  }
}
