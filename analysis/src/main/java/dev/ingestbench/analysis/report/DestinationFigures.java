package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.source.TableAppendsCsv;
import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.RoundSettings;
import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.job.TableRouting;
import dev.ingestbench.contracts.job.TableSkew;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A many-tables round's own figures: when rows reached the first and the last table, how they
 * spread over the tables, and the table and stream calls the emulator counted. Computed from {@code
 * tables.csv} and {@code bigquery_emulator.json}; none for a round of one table.
 */
final class DestinationFigures {
  private DestinationFigures() {}

  static Optional<RoundSummary.Destinations> of(RoundAnalysis a) {
    ConsumerResult c = a.consumer();
    if (c.destinationTables() <= 1 || a.tables().isEmpty()) {
      return Optional.empty();
    }
    Map<String, Long> rowsByTable = new HashMap<>();
    Map<String, Long> firstByTable = new HashMap<>();
    for (TableAppendsCsv.Table t : a.tables()) {
      rowsByTable.merge(t.table(), t.rows(), Long::sum);
      firstByTable.merge(t.table(), t.firstAppendMs(), Math::min);
    }
    long[] rows = rowsByTable.values().stream().mapToLong(Long::longValue).sorted().toArray();
    long total = rowsByTable.values().stream().mapToLong(Long::longValue).sum();
    Double start = startMillis(c);
    long first = firstByTable.values().stream().mapToLong(Long::longValue).min().orElse(0);
    long last = firstByTable.values().stream().mapToLong(Long::longValue).max().orElse(0);
    boolean allWritten = rowsByTable.size() >= c.destinationTables();
    TableSkew skew = c.tableSkew() == null ? TableSkew.UNIFORM : TableSkew.fromYaml(c.tableSkew());
    EmulatorStatus.ApiCalls calls = a.emulator().map(EmulatorStatus::apiCalls).orElse(null);
    Double createP99 =
        a.emulator()
            .flatMap(
                e ->
                    e.rpcTimes() == null
                        ? Optional.empty()
                        : e.rpcTimes().stream()
                            .filter(r -> r.rpc().equals("CreateWriteStream"))
                            .findFirst())
            .map(EmulatorStatus.RpcTime::p99Ms)
            .orElse(null);
    return Optional.of(
        new RoundSummary.Destinations(
            c.destinationTables(),
            rowsByTable.size(),
            a.round().map(RoundSettings::createTables).orElse(null),
            start == null ? null : (first - start) / 1000.0,
            start == null || !allWritten ? null : (last - start) / 1000.0,
            rows[0],
            rows[rows.length / 2],
            rows[rows.length - 1],
            total == 0 ? 0 : rows[rows.length - 1] / (double) total,
            new TableRouting(c.destinationTables(), skew).share(0),
            calls == null ? 0 : calls.tablesGetCalls(),
            calls == null ? 0 : calls.tablesGetThrottled(),
            calls == null ? 0 : calls.tablesInsertCalls(),
            calls == null ? 0 : calls.tablesInsertThrottled(),
            calls == null ? 0 : calls.createWriteStreamCalls(),
            createP99,
            calls == null ? 0 : calls.createWriteStreamSlowed(),
            secondsAfter(calls == null ? null : calls.tablesInsertFirstMs(), start),
            secondsAfter(calls == null ? null : calls.tablesInsertLastMs(), start),
            calls == null ? null : calls.tablesGetP99Ms(),
            calls == null ? null : calls.tablesInsertP99Ms()));
  }

  /** {@code epochMs} in seconds after {@code startMs}; null when either is unknown. */
  private static Double secondsAfter(Long epochMs, Double startMs) {
    return epochMs == null || startMs == null ? null : Math.round(epochMs - startMs) / 1000.0;
  }

  /** When the consumer started, epoch ms; null when its result does not say. */
  private static Double startMillis(ConsumerResult c) {
    try {
      return c.startedAt() == null ? null : (double) Instant.parse(c.startedAt()).toEpochMilli();
    } catch (RuntimeException e) {
      return null;
    }
  }
}
