package dev.ingestbench.bigquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.EmulatorStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The quotas that refuse while they refill: which tier refuses, what and when. */
class QuotaTiersTest {
  private static final long SECOND = 1_000_000_000L;

  /** Epoch ms = nanos / 10^6: the refusals' times read as seconds from 0. */
  private static final EpochClock CLOCK = new EpochClock(0, 0);

  private static QuotaTiers reject(double mbPerSecond, double windowSeconds) {
    return QuotaTiers.of(
        EmulatorSettings.defaults()
            .withQuotaMode(EmulatorSettings.REJECT)
            .withLimits(mbPerSecond, windowSeconds, 1_000, 10_000_000),
        CLOCK);
  }

  /** Regional 1 MB/s per 60 s (60 MB), cell 2 MB/s per 10 s (20 MB). */
  private static QuotaTiers twoTier() {
    return QuotaTiers.of(
        EmulatorSettings.defaults()
            .withQuotaMode(EmulatorSettings.TWO_TIER)
            .withLimits(1, 60, 1_000, 10_000_000)
            .withCellQuota(new EmulatorSettings.CellQuota(2, 10))
            .validate(),
        CLOCK);
  }

  /** Reject mode: what the budget cannot pay is refused, and nothing refused is charged. */
  @Test
  void rejectModeRefusesUntilTheWindowRefills() {
    QuotaTiers quota = reject(1, 10); // 10 MB per 10 s window
    for (int i = 0; i < 10; i++) {
      assertNull(quota.admit(1_000_000, i * SECOND / 10), "within the budget, append " + i);
    }
    QuotaTiers.Refusal refused = quota.admit(1, 2 * SECOND);
    assertNotNull(refused);
    assertEquals(QuotaTiers.CELL, refused.tier());
    assertEquals(8.0, refused.secondsToRefill(), 1e-9);
    assertNotNull(quota.admit(1_000_000, 9 * SECOND));
    assertEquals(2, quota.refusedAppends());
    assertNull(quota.admit(1_000_000, 10 * SECOND), "the window ended: a full budget again");
    assertNull(quota.admit(9_000_000, 11 * SECOND), "refused appends were not charged");
    assertNotNull(quota.admit(1, 12 * SECOND));
    EmulatorStatus.QuotaTier cell = quota.status().get(0);
    assertEquals(3, cell.refusedAppends());
    assertEquals(1_000_002, cell.refusedBytes());
    assertEquals(2, cell.refusalWindows());
    assertEquals(
        List.of(
            new EmulatorStatus.QuotaRefusal(2_000, 9_000, 10_000, 2, 1_000_001),
            new EmulatorStatus.QuotaRefusal(12_000, 12_000, 20_000, 1, 1)),
        cell.refusals());
  }

  @Test
  void throttleModeAndNoQuotaRefuseNothing() {
    QuotaTiers throttle = QuotaTiers.of(EmulatorSettings.defaults(), CLOCK);
    assertNull(throttle.admit(Long.MAX_VALUE / 4, 0));
    assertEquals(List.of(), throttle.status());
    assertEquals(List.of(), reject(0, 10).status(), "0 MB/s: no quota");
  }

  /** A burst above the cell's rate is refused by the cell, for the rest of its 10 s window. */
  @Test
  void aBurstIsRefusedByTheCell() {
    QuotaTiers quota = twoTier();
    for (int i = 0; i < 20; i++) {
      assertNull(quota.admit(1_000_000, i * SECOND / 10)); // 20 MB in 2 s: the cell's budget
    }
    QuotaTiers.Refusal refused = quota.admit(1_000_000, 2 * SECOND);
    assertEquals(QuotaTiers.CELL, refused.tier());
    assertEquals(8.0, refused.secondsToRefill(), 1e-9);
    assertNull(quota.admit(1_000_000, 10 * SECOND), "the cell refilled; the region has 40 MB left");
    List<EmulatorStatus.QuotaTier> tiers = quota.status();
    assertEquals(
        List.of(QuotaTiers.REGIONAL, QuotaTiers.CELL), tiers.stream().map(t -> t.tier()).toList());
    assertEquals(0, tiers.get(0).refusedAppends(), "the region refused nothing");
    assertEquals(1, tiers.get(1).refusedAppends());
  }

  /**
   * A sustained rate between the two passes every cell window but spends the regional budget, and
   * then the region refuses everything until it refills, whatever the cell has left.
   */
  @Test
  void aSustainedRateAboveTheRegionIsRefusedByTheRegionUntilItRefills() {
    QuotaTiers quota = twoTier();
    long admitted = 0;
    long firstRegional = -1;
    // 1.5 MB/s: under the cell's 2, over the region's 1.
    for (long t = 0; t < 60 * SECOND; t += SECOND / 10) {
      QuotaTiers.Refusal r = quota.admit(150_000, t);
      if (r == null) {
        admitted += 150_000;
      } else {
        assertEquals(QuotaTiers.REGIONAL, r.tier(), "at " + t / 1e9 + " s");
        if (firstRegional < 0) {
          firstRegional = t;
          assertEquals(60 - t / 1e9, r.secondsToRefill(), 1e-6, "refills when its window ends");
        }
      }
    }
    assertEquals(60_000_000, admitted, "exactly the regional budget passed in its window");
    assertEquals(40.0, firstRegional / 1e9, 0.11, "60 MB at 1.5 MB/s last 40 s");
    assertNull(quota.admit(150_000, 60 * SECOND), "the region refilled");
    EmulatorStatus.QuotaTier regional = quota.status().get(0);
    assertEquals(1, regional.refusalWindows());
    EmulatorStatus.QuotaRefusal window = regional.refusals().get(0);
    assertEquals(firstRegional / 1_000_000, window.firstRefusedMs());
    assertEquals(60_000, window.refilledMs());
    assertEquals(regional.refusedAppends(), window.appends());
    assertEquals(0, quota.status().get(1).refusedAppends(), "the cell refused nothing");
  }

  /** Over any run each tier passes at most its rate times the time plus one budget. */
  @Test
  void neitherTierPassesMoreThanItsBudgets() {
    QuotaTiers quota = twoTier();
    long admitted = 0;
    long end = 600 * SECOND;
    for (long t = 0; t < end; t += SECOND / 50) {
      if (quota.admit(100_000, t) == null) { // 5 MB/s offered
        admitted += 100_000;
      }
    }
    assertTrue(admitted <= 1e6 * 600 + 60e6, "regional bound: " + admitted);
    assertTrue(admitted >= 1e6 * 600 * 0.9, "the region's rate passes: " + admitted);
    List<EmulatorStatus.QuotaTier> tiers = quota.status();
    assertTrue(
        tiers.get(0).refusedAppends() > 0 && tiers.get(1).refusedAppends() > 0, "both refused");
    assertEquals(10, tiers.get(0).refusalWindows(), "one refusal per regional window");
  }

  @Test
  void twoTierWithoutAQuotaHasNoTiersAndAsksNothingOfTheCell() {
    EmulatorSettings none =
        EmulatorSettings.defaults()
            .withQuotaMode(EmulatorSettings.TWO_TIER)
            .withLimits(0, 600, 1_000, 10_000_000)
            .withCellQuota(new EmulatorSettings.CellQuota(0, 10))
            .validate();
    assertEquals(List.of(), QuotaTiers.of(none, CLOCK).status());
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () ->
                BigQueryEmulatorCommand.settingsOf(
                    List.of("--quota-mode=two-tier", "--quota-window-seconds=8")));
    assertTrue(
        e.getMessage().startsWith("--quota-window-seconds must be longer than the cell's window"),
        e.getMessage());
  }

  @Test
  void theCellMustRefillSoonerThanTheRegion() {
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class,
            () ->
                EmulatorSettings.defaults()
                    .withQuotaMode(EmulatorSettings.TWO_TIER)
                    .withLimits(1, 10, 1_000, 10_000_000)
                    .withCellQuota(new EmulatorSettings.CellQuota(2, 10))
                    .validate());
    assertTrue(
        e.getMessage().startsWith("--cell-quota-window-seconds must be above 0 and shorter"),
        e.getMessage());
  }
}
