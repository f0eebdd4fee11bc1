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
    // Nothing waits past the window's end, when the budget refills.
    assertEquals(10 * SECOND, quota.admit(10_000_000, now));
    assertEquals(0, quota.admit(1_000_000, 10 * SECOND), "a new window has a new budget");
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
    assertTrue(mbPerSecond > 0.9 && mbPerSecond < 1.3, "average " + mbPerSecond + " MB/s");
  }

  @Test
  void zeroDisablesTheQuota() {
    assertEquals(0, new ThroughputQuota(0, 10).admit(Long.MAX_VALUE / 2, 0));
  }
}
