package dev.ingestbench.analysis.plan;

import dev.ingestbench.contracts.RoundSettings;
import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Turns a rate into workers, connections and quota: from the per-row CPU of a measured round
 * (adjusted by JMH for the row encoding) and the connection counts measured per worker and table.
 * docs/plan.md has every formula.
 */
public final class Planner {
  /**
   * Beam's multiplexing connection pool: 2 to {@code --maxConnectionPoolConnections} (20) per
   * worker JVM and region.
   */
  static final int POOL_MIN = 2;

  /**
   * Exactly-once with auto-sharding: published round 1 opened 60 connections per job on 3 workers,
   * one table: 20 per worker and table.
   */
  static final int EXACTLY_ONCE_PER_WORKER_AND_TABLE = 20;

  private Planner() {}

  public static CapacityPlan plan(PlanRequest r) {
    return plan(r, perRow(r.validate()));
  }

  /**
   * The plan from a per-row cost of the user's choosing, e.g. {@link #measuredBy(Path)}: a round of
   * their own.
   */
  public static CapacityPlan plan(PlanRequest r, PerRowCost perRow) {
    r.validate();
    double vcpus = r.rowsPerSecond() * perRow.microsPerRow() / 1e6 / r.cpuTarget();
    int workers = (int) Math.max(1, Math.ceil(vcpus / r.machineVcpus() - 1e-9));
    double rowBytes = r.messageSize() + rowOverheadBytes(r);
    double writeMb = r.rowsPerSecond() * rowBytes / 1e6 * r.jobs();
    double sourceMb = r.rowsPerSecond() * r.messageSize() / 1e6 * r.jobs();
    double share = writeMb / r.quotaMbPerSecond();
    long low;
    long high;
    String basis;
    long perJobWorkers = (long) workers * r.jobs();
    if (r.writeMethod().equals("exactly-once")) {
      low = high = EXACTLY_ONCE_PER_WORKER_AND_TABLE * r.destinationTables() * perJobWorkers;
      basis =
          EXACTLY_ONCE_PER_WORKER_AND_TABLE
              + " per worker and table (exactly-once, auto-sharding: published round 1 opened 60 per"
              + " job on 3 workers with one table)";
    } else if (r.connectionPool()) {
      low = POOL_MIN * perJobWorkers;
      high = (long) r.maxPoolConnections() * perJobWorkers;
      basis =
          "Beam's connection pool keeps 2-"
              + r.maxPoolConnections()
              + " per worker JVM whatever the tables (published round 4:"
              + " 10 with one job on 3 workers, 25 with two; round 5, 4 tables: 21 and 42)";
    } else {
      low = high = (long) r.destinationTables() * perJobWorkers;
      basis =
          "one per destination table in every worker of every job (measured here on a Flink"
              + " cluster: tables x workers x jobs exactly, docs/results.md)";
    }
    List<String> warnings = new ArrayList<>();
    if (share >= 1) {
      warnings.add(
          String.format(
              Locale.ROOT,
              "Quota: %,.1f MB/s is %.0f%% of the %,.2f MB/s Storage Write API throughput quota"
                  + " given: above it appends are throttled, as published round 2's three jobs were"
                  + " to 300 MiB/s in a sawtooth. Quotas differ by project (round 4's two jobs wrote"
                  + " ~393 MB/s unthrottled in theirs): read your project's and pass it as"
                  + " --quota-mb-per-second; else spread the jobs over regions or write fewer bytes"
                  + " per row",
              writeMb,
              share * 100,
              r.quotaMbPerSecond()));
    } else if (share >= 0.8) {
      warnings.add(
          String.format(
              Locale.ROOT,
              "Quota: %,.1f MB/s is %.0f%% of the region's %,.2f MB/s quota: a catch-up after a"
                  + " pause would be throttled",
              writeMb,
              share * 100,
              r.quotaMbPerSecond()));
    }
    if (low >= CapacityPlan.CONNECTION_LIMIT) {
      warnings.add(
          String.format(
              Locale.ROOT,
              "Connections: %,d or more against the limit of %,d concurrent connections: new"
                  + " streams will be refused; %s",
              low,
              CapacityPlan.CONNECTION_LIMIT,
              connectionFix(r)));
    } else if (high >= CapacityPlan.CONNECTION_LIMIT) {
      warnings.add(
          String.format(
              Locale.ROOT,
              "Connections: up to %,d against the limit of %,d: %s",
              high,
              CapacityPlan.CONNECTION_LIMIT,
              connectionFix(r)));
    }
    warnings.addAll(DestinationWarnings.of(r, perJobWorkers));
    return new CapacityPlan(
        r, perRow, vcpus, workers, writeMb, share, sourceMb, low, high, basis, warnings);
  }

  /**
   * What a row carries besides its message, as the published timelines show: round 4 wrote ~190
   * MB/s at ~339k rows/s of ~500 B JSON (~560 B a row: the JSON column and the metadata columns),
   * round 5 ~59 MB/s at ~457k rows/s of ~88 B Avro (~129 B a typed row).
   */
  static double rowOverheadBytes(PlanRequest r) {
    return r.messageFormat().equals("avro") ? 59e6 / 457_000 - 88 : 190e6 / 339_000 - 500;
  }

  private static String connectionFix(PlanRequest r) {
    return r.writeMethod().equals("at-least-once") && !r.connectionPool()
        ? "add --connection-pool (Beam's pool: 2-20 per worker whatever the tables)"
        : "fewer workers per job (larger machines) or fewer jobs";
  }

  /**
   * The per-row CPU a round measured here: its {@code summary.json}'s rows per consumer CPU-second
   * over the steady window. That is the local runner's cost on this machine, not a Dataflow
   * worker's; the plan says so.
   *
   * @throws IllegalArgumentException naming the directory when it is no round or measured no CPU
   */
  public static PerRowCost measuredBy(Path round) throws IOException {
    Path file = round.resolve(RunFiles.SUMMARY);
    if (!Files.isRegularFile(file) || !Files.isRegularFile(round.resolve(RunFiles.ROUND))) {
      throw new IllegalArgumentException(
          "--measured-round "
              + round
              + " is not a round's directory (it has no "
              + RunFiles.ROUND
              + " and "
              + RunFiles.SUMMARY
              + "): give the --out of ingestbench round");
    }
    RoundSummary s = RunJson.read(file, RoundSummary.class);
    RoundSettings settings = RunJson.read(round.resolve(RunFiles.ROUND), RoundSettings.class);
    if (s.rowsPerCpuSecond() == null || !(s.rowsPerCpuSecond() > 0)) {
      throw new IllegalArgumentException(
          "--measured-round "
              + round
              + " measured no rows per CPU-second (no steady window): run a longer round");
    }
    return new PerRowCost(
        1e6 / s.rowsPerCpuSecond(),
        String.format(
            Locale.ROOT,
            "the round in %s: %,.0f rows per consumer CPU-second over its %d s steady window on"
                + " %d vCPUs (%s, %s, %d-byte %s messages, %s rows, runner %s) — this machine's"
                + " local runner, not a Dataflow worker",
            round,
            s.rowsPerCpuSecond(),
            s.measured() == null ? 0 : s.measured().steadyWindowSeconds(),
            s.measured() == null ? 0 : s.measured().vcpus(),
            settings.source() == null ? "pubsub" : settings.source(),
            settings.writeMethod(),
            settings.messageSizeBytes(),
            settings.messageFormat() == null ? "json" : settings.messageFormat(),
            settings.rowEncoding(),
            s.runner()),
        "none: the round's own flags are its measurement (the plan's --row-encoding and"
            + " --message-size are not applied to it)");
  }

  /** The per-row CPU: the closest measured round, then the row encoding's JMH difference. */
  static PerRowCost perRow(PlanRequest r) {
    if (r.messageFormat().equals("avro")) {
      PerRowCost.Round round = r.source().equals("kafka") ? PerRowCost.ROUND_6 : PerRowCost.ROUND_5;
      return new PerRowCost(
          round.microsPerRow(),
          round.describe(),
          "none: the published Avro rounds are the only Avro measurement (~88 B messages into"
              + " typed rows); --row-encoding and --message-size are not applied to them");
    }
    PerRowCost.Round round = PerRowCost.ROUND_4;
    String route = JmhRoutes.route(r.rowEncoding(), r.rowFormat());
    double base = JmhRoutes.micros("json-column", 500);
    double mine = JmhRoutes.micros(route, r.messageSize());
    String adjustment =
        String.format(
            Locale.ROOT,
            "%+.2f µs per row: JMH's %s at %,d B (%.2f µs) against the round's json-column at 500 B"
                + " (%.2f µs), docs/jmh.md%s",
            mine - base,
            route,
            r.messageSize(),
            mine,
            base,
            (r.source().equals("kafka")
                    ? "; the round read Pub/Sub, and no JSON round read Kafka: the source's cost is"
                        + " Pub/Sub's"
                    : "")
                + (r.messageSize() > 1_000 || r.messageSize() < 250
                    ? "; only the conversion's cost follows the size: reading and sending more (or"
                        + " fewer) bytes than the round's 500 is not measured, so this plan is less"
                        + " sure"
                    : ""));
    return new PerRowCost(round.microsPerRow() + mine - base, round.describe(), adjustment);
  }
}
