package dev.ingestbench.analysis.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ingestbench.contracts.MaxRateResult;
import dev.ingestbench.contracts.ResultLabel;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.RunCost;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Measures as {@link ResultRecord}s: one per metric, each carrying who, where and with which flags,
 * so a line of {@code results.jsonl} (or a row of the results table) stands on its own.
 */
public final class ResultRecords {
  /**
   * What every record of a step shares; {@code labels} are the job's flags plus the run's (scale,
   * machine).
   */
  public record Step(
      String runId,
      String scenario,
      String target,
      int iteration,
      String stage,
      String timestamp) {}

  private final Step step;
  private final List<ResultRecord> records = new ArrayList<>();

  public ResultRecords(Step step) {
    this.step = step;
  }

  public List<ResultRecord> records() {
    return List.copyOf(records);
  }

  /** A stage's measures of one job (or all jobs: {@link ResultRecord#ALL_JOBS}). */
  public ResultRecords stage(String job, StageMeasures m, int vcpus, Map<String, String> labels) {
    add(job, "rows_per_second", m.rowsPerSecond().mean(), "rows/s", labels);
    add(job, "rows_per_second_stddev", m.rowsPerSecond().stddev(), "rows/s", labels);
    add(job, "rows_per_second_ci95_low", m.rowsPerSecond().ci95Low(), "rows/s", labels);
    add(job, "rows_per_second_ci95_high", m.rowsPerSecond().ci95High(), "rows/s", labels);
    add(job, "mb_per_second", m.mbPerSecond().mean(), "MB/s", labels);
    add(job, "steady_seconds", m.steadySeconds(), "s", labels);
    add(job, "rows_written", m.rows(), "rows", labels);
    add(job, "peak_connections", m.peakConnections(), "connections", labels);
    add(job, "cpu_utilisation", vcpus > 0 ? m.vcpusBusy() / vcpus : Double.NaN, "fraction", labels);
    add(job, "rows_per_cpu_second", m.rowsPerCpuSecond(), "rows/CPU-s", labels);
    if (!job.equals(ResultRecord.ALL_JOBS)) {
      add(job, "accounted_for", m.accountedFor(), "messages", labels);
      StageCost.hour(m, labels)
          .ifPresent(
              c -> {
                Map<String, String> where = new LinkedHashMap<>(labels);
                where.put(ResultLabel.REGION.key(), c.region());
                add(job, "usd_per_hour", c.usd(), "USD", where);
                add(
                    job,
                    "usd_per_billion_rows",
                    c.usd() / (m.rowsPerSecond().mean() * 3600) * 1e9,
                    "USD",
                    where);
              });
    }
    return this;
  }

  /**
   * A job that had nothing left to read for the last {@code seconds} of a stage that holds or waits
   * until steady: the stage did not measure what it is for.
   */
  public ResultRecords idle(String job, long seconds, Map<String, String> labels) {
    add(job, IDLE_SECONDS, seconds, "s", labels);
    return this;
  }

  /** The metric of {@link #idle}. */
  public static final String IDLE_SECONDS = "idle_seconds";

  /** What a stopped job left in its source, counted by reading it ({@link #verification}). */
  public static final String LEFT = "left";

  /**
   * What job {@code job} left in its source, as its latest verification record says; null when none
   * was recorded (not counted).
   */
  public static Long left(List<ResultRecord> records, String job) {
    return records.stream()
        .filter(r -> r.job().equals(job) && r.metric().equals(LEFT))
        .map(r -> Math.round(r.value()))
        .reduce((first, last) -> last)
        .orElse(null);
  }

  /** The metrics of {@link #verification}: a rerun of the verification replaces exactly these. */
  public static final Set<String> VERIFICATION_METRICS =
      Set.of(
          "published",
          "accounted_for",
          "duplicates",
          "source_duplicates",
          "misrouted_rows",
          "dead_lettered",
          LEFT,
          "lost");

  /**
   * A stopped job's verification, recorded with the last stage it ran in: what was published to it,
   * what it accounted for, the sink's duplicates and the events the source carried twice, the rows
   * in another of its tables than their event's (absent where nothing checks them: BigQuery
   * itself), what it left in its source (counted by reading it), and lost = published - accounted
   * for - left, never clamped (left and lost are absent when they could not be counted).
   */
  public ResultRecords verification(
      String job,
      long published,
      long accountedFor,
      long duplicates,
      long sourceDuplicates,
      Long misroutedRows,
      long deadLettered,
      Long left,
      Long lost,
      Map<String, String> labels) {
    add(job, "published", published, "messages", labels);
    add(job, "accounted_for", accountedFor, "messages", labels);
    add(job, "duplicates", duplicates, "rows", labels);
    add(job, "source_duplicates", sourceDuplicates, "rows", labels);
    add(job, "misrouted_rows", misroutedRows, "rows", labels);
    add(job, "dead_lettered", deadLettered, "messages", labels);
    add(job, LEFT, left, "messages", labels);
    add(job, "lost", lost, "messages", labels);
    return this;
  }

  /** An iteration of an unordered configuration: what its round measured. */
  public ResultRecords round(String job, RoundSummary s, Map<String, String> labels) {
    add(job, "rows_per_second", s.rowsPerSecond(), "rows/s", labels);
    add(job, "mb_per_second", s.mbPerSecond(), "MB/s", labels);
    add(job, "rows_per_second_per_vcpu", s.rowsPerSecondPerVcpu(), "rows/s", labels);
    add(job, "rows_per_cpu_second", s.rowsPerCpuSecond(), "rows/CPU-s", labels);
    add(job, "cpu_utilisation", s.cpuUtilisation(), "fraction", labels);
    add(job, "peak_connections", s.peakConnections(), "connections", labels);
    if (s.peakConsumerHeapMb() > 0) { // 0: no heap samples (a job that did not run here)
      add(job, "peak_consumer_heap_mb", s.peakConsumerHeapMb(), "MB", labels);
    }
    add(job, "rows_written", s.written(), "rows", labels);
    add(job, "duplicates", s.duplicates(), "rows", labels);
    add(job, "source_duplicates", s.sourceDuplicates(), "rows", labels);
    add(job, "misrouted_rows", s.misroutedRows(), "rows", labels);
    add(job, "lost", s.lost(), "messages", labels);
    destinations(job, s.destinations(), labels);
    add(job, "live_p50_latency_ms", s.liveP50LatencyMs(), "ms", labels);
    add(job, "live_p99_latency_ms", s.liveP99LatencyMs(), "ms", labels);
    cost(job, s.cost(), labels);
    return this;
  }

  /** A many-tables round's own figures ({@code summary.json}'s {@code destinations}). */
  private void destinations(String job, RoundSummary.Destinations d, Map<String, String> labels) {
    if (d == null) {
      return;
    }
    add(job, "tables_written", d.tablesWritten(), "tables", labels);
    add(job, "first_row_seconds", d.firstRowSeconds(), "s", labels);
    add(job, "all_tables_seconds", d.allTablesSeconds(), "s", labels);
    add(job, "rows_per_table_min", d.rowsPerTableMin(), "rows", labels);
    add(job, "rows_per_table_max", d.rowsPerTableMax(), "rows", labels);
    add(job, "hottest_table_share", d.hottestShare(), "fraction", labels);
    add(job, "tables_get_calls", d.tablesGetCalls(), "calls", labels);
    add(job, "tables_insert_calls", d.tablesInsertCalls(), "calls", labels);
    if (d.tablesInsertFromSeconds() != null && d.tablesInsertToSeconds() != null) {
      add(
          job,
          "tables_insert_seconds",
          d.tablesInsertToSeconds() - d.tablesInsertFromSeconds(),
          "s",
          labels);
    }
    add(job, "tables_get_p99_ms", d.tablesGetP99Ms(), "ms", labels);
    add(job, "tables_insert_p99_ms", d.tablesInsertP99Ms(), "ms", labels);
    add(job, "create_write_stream_calls", d.createWriteStreamCalls(), "calls", labels);
    add(job, "create_write_stream_p99_ms", d.createWriteStreamP99Ms(), "ms", labels);
  }

  /** The metrics of {@link #cost}: an analysis run again replaces exactly these. */
  public static final Set<String> COST_METRICS =
      Set.of("usd_per_run", "usd_per_hour", "usd_per_billion_rows");

  /**
   * What the load would cost on Dataflow ({@code summary.json}'s {@code cost}, docs/cost.md): per
   * run, per hour at the measured rate, per billion rows; the region is a label of its own.
   */
  public ResultRecords cost(String job, RunCost cost, Map<String, String> labels) {
    if (cost == null) {
      return this;
    }
    Map<String, String> where = new LinkedHashMap<>(labels);
    where.put(ResultLabel.REGION.key(), cost.region());
    add(job, "usd_per_run", cost.usdPerRun(), "USD", where);
    add(job, "usd_per_hour", cost.usdPerHour(), "USD", where);
    add(job, "usd_per_billion_rows", cost.usdPerBillionRows(), "USD", where);
    return this;
  }

  /**
   * A max-rate stage's answer ({@code round --find-max-rate} for one job): the highest sustained
   * rate with its interval, its cost per vCPU and per consumer CPU-second, the publisher's own
   * capacity and the probes it took; the limit that ended it is the label {@code limited_by}.
   */
  public ResultRecords maxRate(String job, MaxRateResult r, Map<String, String> labels) {
    Map<String, String> l = new LinkedHashMap<>(labels);
    l.put(ResultLabel.LIMITED_BY.key(), r.limitedBy());
    l.put(ResultLabel.LATENCY_SLO_MS.key(), Long.toString(r.latencySloMs()));
    add(job, "max_sustainable_rows_per_second", r.maxSustainableRowsPerSecond(), "rows/s", l);
    if (r.sustainedRowsPerSecond() != null) {
      add(
          job,
          "max_sustainable_rows_per_second_ci95_low",
          r.sustainedRowsPerSecond().ci95Low(),
          "rows/s",
          l);
      add(
          job,
          "max_sustainable_rows_per_second_ci95_high",
          r.sustainedRowsPerSecond().ci95High(),
          "rows/s",
          l);
    }
    add(job, "max_sustainable_rows_per_second_per_vcpu", r.rowsPerSecondPerVcpu(), "rows/s", l);
    add(
        job,
        "max_rate_rows_per_consumer_cpu_second",
        r.rowsPerConsumerCpuSecond(),
        "rows/CPU-s",
        l);
    add(
        job,
        "publisher_capacity_messages_per_second",
        r.publisherCapacityMessagesPerSecond(),
        "messages/s",
        l);
    add(job, "max_rate_probes", r.probes().size(), "probes", l);
    return this;
  }

  /**
   * A load-test stage's figures, from the load test's {@code summary.json}: each side's messages/s
   * (with its interval) and MB/s, publish and end-to-end p99, and the message accounting.
   */
  public ResultRecords loadTest(String job, JsonNode summary, Map<String, String> labels) {
    for (String side : List.of("publish", "subscribe")) {
      JsonNode s = summary.path(side);
      if (s.isMissingNode()) {
        continue;
      }
      String prefix = side.equals("publish") ? "pubsub_published" : "pubsub_received";
      add(
          job,
          prefix + "_messages_per_second",
          number(s.path("messages_per_second").path("mean")),
          "messages/s",
          labels);
      add(
          job,
          prefix + "_messages_per_second_ci95_low",
          number(s.path("messages_per_second").path("ci95_low")),
          "messages/s",
          labels);
      add(
          job,
          prefix + "_messages_per_second_ci95_high",
          number(s.path("messages_per_second").path("ci95_high")),
          "messages/s",
          labels);
      add(
          job,
          prefix + "_mb_per_second",
          number(s.path("mb_per_second").path("mean")),
          "MB/s",
          labels);
    }
    add(
        job,
        "pubsub_publish_p99_ms",
        number(summary.path("publish").path("latency_ms").path("p99")),
        "ms",
        labels);
    add(
        job,
        "pubsub_end_to_end_p99_ms",
        number(summary.path("subscribe").path("end_to_end_latency_ms").path("p99")),
        "ms",
        labels);
    JsonNode totals = summary.path("totals");
    add(job, "pubsub_published", number(totals.path("published")), "messages", labels);
    add(job, "pubsub_errors", number(totals.path("errors")), "messages", labels);
    add(job, "pubsub_missing", number(totals.path("missing")), "messages", labels);
    add(job, "pubsub_duplicates", number(totals.path("duplicates")), "messages", labels);
    return this;
  }

  private static Double number(JsonNode n) {
    return n.isNumber() ? n.asDouble() : null;
  }

  /**
   * Records without a value (no CPU samples, no latency) are left out rather than written as NaN.
   */
  private void add(
      String job, String metric, Number value, String unit, Map<String, String> labels) {
    if (value == null
        || Double.isNaN(value.doubleValue())
        || Double.isInfinite(value.doubleValue())) {
      return;
    }
    records.add(
        new ResultRecord(
            step.runId(),
            step.scenario(),
            step.target(),
            step.iteration(),
            step.stage(),
            job,
            metric,
            value.doubleValue(),
            unit,
            new LinkedHashMap<>(labels),
            step.timestamp()));
  }
}
