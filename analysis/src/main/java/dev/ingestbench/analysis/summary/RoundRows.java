package dev.ingestbench.analysis.summary;

import dev.ingestbench.contracts.RoundSettings;
import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A round's row: its {@code round.json} (what it was asked) and {@code summary.json} (what it did).
 */
final class RoundRows {
  private RoundRows() {}

  static RunRow of(String name, Path dir) throws IOException {
    RoundSettings settings = RunJson.read(dir.resolve(RunFiles.ROUND), RoundSettings.class);
    RoundSummary s = RunJson.read(dir.resolve(RunFiles.SUMMARY), RoundSummary.class);
    boolean live = s.liveP50LatencyMs() != null;
    RoundSummary.Estimate rate = s.rowsPerSecondEstimate();
    return new RunRow(
        name,
        "round",
        "round",
        "round",
        settings.jobCount() > 1 ? settings.jobCount() + " jobs" : "consumer",
        1,
        settings.source() == null ? "pubsub" : settings.source(),
        "in-process".equals(settings.sink()) ? "in-process emulator" : "bigquery-emulator",
        settings.flinkCluster() != null ? "Flink cluster" : settings.runner() + " (embedded)",
        settings.messageFormat() == null ? "json" : settings.messageFormat(),
        settings.messageSizeBytes(),
        settings.writeMethod(),
        s.measured() == null ? 0 : s.measured().vcpus(),
        number(settings.machine(), "memory_gb"),
        settings.heap(),
        settings.liveMessages() > 0 ? settings.liveRate() : null,
        s.rowsPerSecond(),
        rate == null ? null : rate.ci95Low(),
        rate == null ? null : rate.ci95High(),
        live ? s.liveP50LatencyMs() : s.p50LatencyMs(),
        live ? s.liveP99LatencyMs() : s.p99LatencyMs(),
        live ? "live" : (s.p50LatencyMs() == null ? null : "all"),
        Verification.of(
            s.lost(), s.duplicates(), "exactly-once".equals(settings.writeMethod()), s.complete()),
        s.cost() == null ? null : s.cost().usdPerBillionRows(),
        s.maxSustainableRowsPerSecond(),
        // The search's limit, the row's "max sustained" column: every round names a limit now.
        Files.exists(dir.resolve(RunFiles.MAX_RATE_SEARCH)) ? s.limitedBy() : null,
        settings.machineCalibration() == null
            ? null
            : settings.machineCalibration().operationsPerSecond());
  }

  private static Double number(Map<String, Object> map, String key) {
    return map != null && map.get(key) instanceof Number n ? n.doubleValue() : null;
  }
}
