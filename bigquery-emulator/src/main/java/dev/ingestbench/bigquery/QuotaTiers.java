package dev.ingestbench.bigquery;

import dev.ingestbench.contracts.EmulatorStatus;
import java.util.List;

/**
 * The append-throughput quotas that refuse while they refill, checked in order: {@code --quota-mode
 * reject} has the short-term (cell) one alone; {@code two-tier} puts it under the long-term
 * (regional) one, "an aggregate of multiple cells [that] can take up to 10min to refill"
 * (apache/beam PR #31837). An append must fit every tier; the first tier it does not fit refuses it
 * and is named in the answer, and no tier is charged for it. Empty in {@code throttle} mode, where
 * {@link ThroughputQuota} slows appends instead.
 */
final class QuotaTiers {
  /** The short-term quota's name in answers, the status and reports. */
  static final String CELL = "cell";

  /** The long-term quota's name. */
  static final String REGIONAL = "regional";

  /** Which tier refused an append and when it refills. */
  record Refusal(String tier, double secondsToRefill) {}

  private final List<QuotaTier> tiers;

  private QuotaTiers(List<QuotaTier> tiers) {
    this.tiers = tiers;
  }

  /** The tiers the settings' quota mode refuses with; none for {@code throttle} or no quota. */
  static QuotaTiers of(EmulatorSettings s, EpochClock clock) {
    if (s.quotaMbPerSecond() <= 0 || EmulatorSettings.THROTTLE.equals(s.quotaMode())) {
      return new QuotaTiers(List.of());
    }
    if (EmulatorSettings.REJECT.equals(s.quotaMode())) {
      return new QuotaTiers(
          List.of(new QuotaTier(CELL, s.quotaMbPerSecond(), s.quotaWindowSeconds(), clock)));
    }
    // The regional tier first: while it refills (minutes) it is what refuses, whatever the cell
    // has.
    return new QuotaTiers(
        List.of(
            new QuotaTier(REGIONAL, s.quotaMbPerSecond(), s.quotaWindowSeconds(), clock),
            new QuotaTier(
                CELL, s.cellQuota().mbPerSecond(), s.cellQuota().windowSeconds(), clock)));
  }

  /** Admits an append of {@code bytes} and charges every tier, or says which tier refused it. */
  Refusal admit(long bytes, long nowNanos) {
    if (tiers.isEmpty()) {
      return null; // throttle mode or no quota: every append, without the lock
    }
    return admitLocked(bytes, nowNanos);
  }

  private synchronized Refusal admitLocked(long bytes, long nowNanos) {
    for (QuotaTier tier : tiers) {
      if (!tier.fits(bytes, nowNanos)) {
        tier.refuse(bytes, nowNanos);
        return new Refusal(tier.name, tier.secondsToRefill(nowNanos));
      }
    }
    for (QuotaTier tier : tiers) {
      tier.charge(bytes);
    }
    return null;
  }

  synchronized long refusedAppends() {
    return tiers.stream().mapToLong(QuotaTier::refusedAppends).sum();
  }

  synchronized List<EmulatorStatus.QuotaTier> status() {
    return tiers.stream().map(QuotaTier::status).toList();
  }
}
