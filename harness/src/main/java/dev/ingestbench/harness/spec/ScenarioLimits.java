package dev.ingestbench.harness.spec;

import dev.ingestbench.bigquery.EmulatorLimitOptions;
import dev.ingestbench.scenario.Scenario;

/**
 * A scenario's {@code limits} as the BigQuery emulator's limit options, the ones {@code round}
 * takes too.
 */
public final class ScenarioLimits {
  private ScenarioLimits() {}

  /**
   * The limits the file sets (none when it has no {@code limits}); the rest keep BigQuery's
   * defaults.
   */
  public static EmulatorLimitOptions of(Scenario.Limits limits) {
    return limits == null
        ? new EmulatorLimitOptions()
        : EmulatorLimitOptions.of(
            limits.quotaMbPerSecond(),
            limits.quotaWindowSeconds(),
            limits.quotaMode(),
            limits.cellQuotaMbPerSecond(),
            limits.cellQuotaWindowSeconds(),
            limits.maxConnections(),
            limits.maxRequestBytes(),
            limits.tablesApiQuota(),
            limits.createWriteStreamThreshold(),
            limits.createWriteStreamSlowdownMs());
  }
}
