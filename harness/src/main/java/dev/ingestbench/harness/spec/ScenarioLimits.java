package dev.ingestbench.harness.spec;

import dev.ingestbench.bigquery.EmulatorLimitOptions;
import dev.ingestbench.scenario.Scenario;
import java.util.List;

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
        ? EmulatorLimitOptions.of(null, null, null, null, List.of())
        : EmulatorLimitOptions.of(
            limits.quotaMbPerSecond(),
            limits.quotaWindowSeconds(),
            limits.maxConnections(),
            limits.maxRequestBytes(),
            List.of());
  }
}
