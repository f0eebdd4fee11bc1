package dev.ingestbench.pubsubload;

import static dev.ingestbench.pubsubload.LoadResult.round;

import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;

/**
 * A grid search's trials per combination, as the published batching study reports them: the median
 * time to publish the trial's messages with its interquartile range, messages per second and "time
 * to publish 1M" from the median, each against the baseline without batching; the best and the
 * worst; and a recommendation with the publish latency it costs.
 */
final class GridSummary {
  /** One combination's trials. */
  record Row(
      String name,
      int trials,
      double medianMs,
      double q1Ms,
      double q3Ms,
      double messagesPerSecond,
      double secondsPerMillion,
      double vsBaselinePct,
      double latencyP50Ms,
      double latencyP99Ms,
      long errors) {}

  private final BatchingGrid grid;
  private final LoadSettings base;
  private final Row baseline;
  private final List<Row> rows;

  private GridSummary(BatchingGrid grid, LoadSettings base, Row baseline, List<Row> rows) {
    this.grid = grid;
    this.base = base;
    this.baseline = baseline;
    this.rows = rows;
  }

  static GridSummary of(BatchingGrid grid, LoadSettings base, List<Map<String, Object>> trials) {
    Map<String, List<Map<String, Object>>> byCombination = new LinkedHashMap<>();
    for (BatchingGrid.Combination c : grid.combinations(base)) {
      byCombination.put(c.name(), new ArrayList<>());
    }
    for (Map<String, Object> t : trials) {
      List<Map<String, Object>> list = byCombination.get((String) t.get("combination"));
      if (list != null) {
        list.add(t);
      }
    }
    double baselineMedian = median(byCombination.get(BatchingGrid.BASELINE), "time_ms");
    List<Row> rows = new ArrayList<>();
    Row baseline = null;
    for (Map.Entry<String, List<Map<String, Object>>> e : byCombination.entrySet()) {
      List<Map<String, Object>> ts = e.getValue();
      if (ts.isEmpty()) {
        continue;
      }
      DescriptiveStatistics time = stats(ts, "time_ms");
      double median = time.getPercentile(50);
      Row row =
          new Row(
              e.getKey(),
              ts.size(),
              median,
              time.getPercentile(25),
              time.getPercentile(75),
              grid.messages() / (median / 1000),
              median / 1000 * 1e6 / grid.messages(),
              100 * (median - baselineMedian) / baselineMedian,
              median(ts, "publish_p50_ms"),
              median(ts, "publish_p99_ms"),
              ts.stream().mapToLong(t -> ((Number) t.get("errors")).longValue()).sum());
      if (e.getKey().equals(BatchingGrid.BASELINE)) {
        baseline = row;
      } else {
        rows.add(row);
      }
    }
    rows.sort(Comparator.comparingDouble(Row::medianMs));
    return new GridSummary(grid, base, baseline, rows);
  }

  private static DescriptiveStatistics stats(List<Map<String, Object>> trials, String key) {
    DescriptiveStatistics s = new DescriptiveStatistics();
    trials.stream()
        .map(t -> t.get(key))
        .filter(v -> v instanceof Number)
        .forEach(v -> s.addValue(((Number) v).doubleValue()));
    return s;
  }

  private static double median(List<Map<String, Object>> trials, String key) {
    DescriptiveStatistics s = trials == null ? new DescriptiveStatistics() : stats(trials, key);
    return s.getN() == 0 ? Double.NaN : s.getPercentile(50);
  }

  /** Among combinations without errors, the fastest (by median time). */
  Row best() {
    return rows.stream().filter(r -> r.errors() == 0).findFirst().orElse(null);
  }

  Row worst() {
    return rows.isEmpty() ? null : rows.get(rows.size() - 1);
  }

  String recommendation() {
    Row best = best();
    if (best == null || baseline == null) {
      return "No recommendation: no combination completed without errors.";
    }
    if (best.vsBaselinePct() >= 0) {
      return String.format(
          Locale.ROOT,
          "Recommendation: no batching. No combination beat one message per request"
              + " (median %,.0f ms for %,d messages); the best, %s, took %+.1f%%.",
          baseline.medianMs(),
          grid.messages(),
          best.name(),
          best.vsBaselinePct());
    }
    return String.format(
        Locale.ROOT,
        "Recommendation: %s: %.1f%% less time than no batching (time to publish 1M: %s"
            + " instead of %s), at a publish latency p50 of %.1f ms and p99 of %.1f ms (no batching: %.1f / %.1f ms).",
        best.name(),
        -best.vsBaselinePct(),
        duration(best.secondsPerMillion()),
        duration(baseline.secondsPerMillion()),
        best.latencyP50Ms(),
        best.latencyP99Ms(),
        baseline.latencyP50Ms(),
        baseline.latencyP99Ms());
  }

  Map<String, Object> json(Map<String, Object> plan, Map<String, Object> machine) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("plan", plan);
    m.put("machine", machine);
    m.put("baseline", baseline == null ? null : row(baseline));
    m.put("combinations", rows.stream().map(GridSummary::row).toList());
    m.put("best", best() == null ? null : best().name());
    m.put("worst", worst() == null ? null : worst().name());
    m.put("recommendation", recommendation());
    return m;
  }

  private static Map<String, Object> row(Row r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("combination", r.name());
    m.put("trials", r.trials());
    m.put("median_time_ms", round(r.medianMs()));
    m.put("iqr_ms", List.of(round(r.q1Ms()), round(r.q3Ms())));
    m.put("messages_per_second", round(r.messagesPerSecond()));
    m.put("time_to_publish_1m_seconds", round(r.secondsPerMillion()));
    m.put("vs_baseline_pct", round(r.vsBaselinePct()));
    m.put("publish_p50_ms", round(r.latencyP50Ms()));
    m.put("publish_p99_ms", round(r.latencyP99Ms()));
    m.put("errors", r.errors());
    return m;
  }

  String markdown(String targetName, Map<String, Object> machine) {
    Document doc =
        new Document()
            .heading(1, "Pub/Sub publisher batching: grid search")
            .paragraph(
                String.format(
                    Locale.ROOT,
                    "Against %s on %s vCPUs (%s). Grid `%s`; each combination and the baseline"
                        + " without batching (one message per request) ran %d times in a shuffled order; a trial publishes %,d"
                        + " messages of %,d bytes from %d threads%s and is timed from the first publish to the last"
                        + " acknowledgement. Median and interquartile range of the trials; msgs/s and time to publish 1M from the"
                        + " median; latency is the median of the trials' publish p50 and p99.",
                    targetName,
                    machine.get("vcpus"),
                    machine.get("cpu_model"),
                    grid.spec(),
                    grid.trials(),
                    grid.messages(),
                    base.messageSizeBytes(),
                    base.threads(),
                    base.ratePerSecond() > 0
                        ? String.format(Locale.ROOT, " at %,.0f msg/s", base.ratePerSecond())
                        : ""))
            .paragraph("**" + recommendation() + "**");
    if (best() != null && worst() != null) {
      doc.bullets(
          List.of(
              "Best: "
                  + best().name()
                  + ", "
                  + Numbers.signedPct(best().vsBaselinePct())
                  + " time vs no batching",
              "Worst: "
                  + worst().name()
                  + ", "
                  + Numbers.signedPct(worst().vsBaselinePct())
                  + " time vs no batching"));
    }
    Table t =
        Table.of(
            Column.text("Settings"),
            Column.number("Trials"),
            Column.number("Median time (ms)"),
            Column.text("IQR (ms)"),
            Column.number("Msgs/s"),
            Column.number("Time to publish 1M"),
            Column.number("vs no batching"),
            Column.number("Publish p50 / p99 (ms)"),
            Column.number("Errors"));
    List<Row> all = new ArrayList<>();
    if (baseline != null) {
      all.add(baseline);
    }
    all.addAll(rows);
    for (Row r : all) {
      t.row(
          r.name(),
          Integer.toString(r.trials()),
          Numbers.f1(r.medianMs()),
          Numbers.f1(r.q1Ms()) + "–" + Numbers.f1(r.q3Ms()),
          Numbers.f0(r.messagesPerSecond()),
          duration(r.secondsPerMillion()),
          r == baseline ? "baseline" : Numbers.signedPct(r.vsBaselinePct()),
          Numbers.f1(r.latencyP50Ms()) + " / " + Numbers.f1(r.latencyP99Ms()),
          Numbers.count(r.errors()));
    }
    return doc.table(t).markdown();
  }

  /** "1h 21m", "46m 17s", "52s", as the study writes them. */
  static String duration(double seconds) {
    long s = Math.round(seconds);
    if (s >= 86_400) {
      return String.format(
          Locale.ROOT, "%dd %dh %dm", s / 86_400, s % 86_400 / 3600, s % 3600 / 60);
    }
    if (s >= 3600) {
      return String.format(Locale.ROOT, "%dh %dm", s / 3600, s % 3600 / 60);
    }
    if (s >= 60) {
      return String.format(Locale.ROOT, "%dm %ds", s / 60, s % 60);
    }
    return s + "s";
  }
}
