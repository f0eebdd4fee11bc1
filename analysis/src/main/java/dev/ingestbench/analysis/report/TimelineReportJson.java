package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.stats.Comparison;
import dev.ingestbench.analysis.stats.Estimate;
import dev.ingestbench.analysis.stats.PhaseSummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * report.json of {@code ingestbench analyze --timeline}: every figure of the report, numbers
 * rounded to four decimals and null where not finite, and each published claim checked against the
 * raw data.
 */
final class TimelineReportJson {
  private TimelineReportJson() {}

  /** report.json's content. */
  static Map<String, Object> of(TimelineAnalysis a, Map<String, Double> claims) {
    Map<String, Object> json = new LinkedHashMap<>();
    List<Object> phases = new ArrayList<>();
    for (PhaseSummary p : a.phases()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", p.phase().name());
      m.put("kind", p.phase().kind());
      m.put("writers", a.writers().get(p.phase().name()));
      m.put("writers_from", a.writerSources().get(p.phase().name()));
      m.put("start", p.phase().start().toString());
      m.put("end", p.phase().end().toString());
      m.put("minutes", p.phase().buckets());
      m.put("rows_per_second", estimate(p.rowsPerSecond()));
      m.put("mb_per_second", estimate(p.mbPerSecond()));
      m.put("bytes_per_row", num(p.bytesPerRow()));
      m.put("cpu_utilisation", num(p.cpuUtilisation()));
      m.put("rows_per_second_per_vcpu", num(p.rowsPerSecondPerVcpu()));
      m.put("error_rows", p.errorRows());
      phases.add(m);
    }
    json.put("phases", phases);
    json.put("segments", a.allDetectedPhases().stream().map(p -> segment(a, p)).toList());
    json.put(
        "level_changes", a.levelChanges().stream().map(TimelineReportJson::levelChange).toList());
    List<Object> comparisons = new ArrayList<>();
    for (Comparison c : a.comparisons()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("a", c.a());
      m.put("b", c.b());
      m.put("difference_pct", num(c.differencePct()));
      m.put("ci95_low", num(c.ci95LowPct()));
      m.put("ci95_high", num(c.ci95HighPct()));
      m.put("p_value", num(c.pValue()));
      m.put("significant", c.significant());
      comparisons.add(m);
    }
    json.put("comparisons", comparisons);
    json.put(
        "diagnosis",
        a.diagnosis().stream()
            .map(v -> Map.of("verdict", v.verdict(), "evidence", v.evidence()))
            .toList());
    json.put(
        "verdicts",
        a.diagnosis().stream()
            .map(
                v -> {
                  Map<String, Object> m = new LinkedHashMap<>();
                  m.put("kind", v.kind());
                  m.put("phase", v.phase());
                  m.put("verdict", v.verdict());
                  m.put("evidence", v.evidence());
                  return m;
                })
            .toList());
    json.put("claims", claimChecks(a, claims));
    json.put("appended_rows", a.appendedRows());
    if (a.tableRows() > 0) {
      json.put("table_rows", a.tableRows());
      json.put(
          "appended_over_table_pct",
          num(100.0 * (a.appendedRows() - a.tableRows()) / a.tableRows()));
    }
    json.put("phases_given", a.phasesGiven());
    json.put("minutes", a.perMinute().buckets().size());
    return json;
  }

  /** A detected segment (ramp-up, level, burst, throttled, drain) with its mean rates. */
  private static Map<String, Object> segment(TimelineAnalysis a, Phase p) {
    List<Bucket> minutes = a.perMinute().slice(p.fromIndex(), p.toIndex());
    double rows = minutes.stream().mapToLong(Bucket::rows).sum();
    double bytes = minutes.stream().mapToLong(Bucket::bytes).sum();
    double seconds = minutes.stream().mapToInt(Bucket::seconds).sum();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", p.name());
    m.put("kind", p.kind());
    m.put("writers", a.writers().get(p.name()));
    m.put("start", p.start().toString());
    m.put("end", p.end().toString());
    m.put("minutes", p.buckets());
    m.put("rows_per_second", num(rows / seconds));
    m.put("mb_per_second", num(bytes / 1e6 / seconds));
    return m;
  }

  private static Map<String, Object> levelChange(LevelChange c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", c.kind());
    m.put("at", c.at().toString());
    m.put("before", c.before());
    m.put("after", c.after());
    m.put("rows_per_second_before", num(c.rowsPerSecondBefore()));
    m.put("rows_per_second_after", num(c.rowsPerSecondAfter()));
    m.put("change_pct", num(c.changePct()));
    m.put("ci95_low_pct", num(c.ci95LowPct()));
    m.put("ci95_high_pct", num(c.ci95HighPct()));
    m.put("p_value", num(c.pValue()));
    m.put("evidence", c.evidence());
    return m;
  }

  /** A published figure next to what the raw data implies, e.g. claim A1.rows_per_second=55791. */
  static List<Object> claimChecks(TimelineAnalysis a, Map<String, Double> claims) {
    List<Object> out = new ArrayList<>();
    claims.forEach(
        (key, claimed) -> {
          int dot = key.lastIndexOf('.');
          String phase = dot < 0 ? "" : key.substring(0, dot);
          String metric = key.substring(dot + 1);
          PhaseSummary p =
              a.phases().stream()
                  .filter(s -> s.phase().name().equals(phase))
                  .findFirst()
                  .orElseThrow(
                      () ->
                          new IllegalArgumentException(
                              "--claim " + key + ": no phase named '" + phase + "'"));
          Estimate e =
              switch (metric) {
                case "rows_per_second" -> p.rowsPerSecond();
                case "mb_per_second" -> p.mbPerSecond();
                default ->
                    throw new IllegalArgumentException(
                        "--claim " + key + ": metric must be rows_per_second or mb_per_second");
              };
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("claim", key);
          m.put("claimed", claimed);
          m.put("from_raw_data", num(e.mean()));
          m.put("difference_pct", num(100 * (claimed - e.mean()) / e.mean()));
          m.put("matches", Math.abs(claimed - e.mean()) <= 0.005 * Math.abs(e.mean()));
          m.put("within_ci95", claimed >= e.ci95Low() && claimed <= e.ci95High());
          out.add(m);
        });
    return out;
  }

  private static Map<String, Object> estimate(Estimate e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mean", num(e.mean()));
    m.put("stddev", num(e.stddev()));
    m.put("ci95_low", num(e.ci95Low()));
    m.put("ci95_high", num(e.ci95High()));
    return m;
  }

  private static Double num(double v) {
    return Double.isFinite(v) ? Math.round(v * 10_000) / 10_000.0 : null;
  }
}
