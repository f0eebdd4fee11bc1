package dev.ingestbench.analysis.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.ingestbench.analysis.diagnosis.Verdict;
import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.stats.Comparison;
import dev.ingestbench.analysis.stats.Estimate;
import dev.ingestbench.analysis.stats.PhaseSummary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** report.json, report.md and timeline.svg of {@code ingestbench analyze --timeline}. */
public final class TimelineReport {
  public static final String JSON = "report.json";
  public static final String MARKDOWN = "report.md";
  public static final String CHART = "timeline.svg";
  public static final String MB_CHART = "mb_per_second.svg";
  public static final String CPU_CHART = "cpu.svg";
  private static final DateTimeFormatter HM =
      DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);

  private TimelineReport() {}

  public static Map<String, Object> write(TimelineAnalysis a, Map<String, Double> claims, Path out)
      throws IOException {
    Files.createDirectories(out);
    Map<String, Object> json = json(a, claims);
    new ObjectMapper()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .writeValue(out.resolve(JSON).toFile(), json);
    Charts.rowsPerSecond(
        a.perMinute(),
        a.phases().stream().map(PhaseSummary::phase).toList(),
        "Rows/s per minute (data tables), phases shaded",
        "HH:mm",
        out.resolve(CHART));
    List<Phase> shaded = a.phases().stream().map(PhaseSummary::phase).toList();
    List<Date> minutes = a.perMinute().buckets().stream().map(b -> Date.from(b.start())).toList();
    Charts.series(
        "MB/s per minute (data tables), phases shaded",
        "MB/s",
        "HH:mm",
        minutes,
        a.perMinute().buckets().stream().map(Bucket::mbPerSecond).toList(),
        shaded,
        out.resolve(MB_CHART));
    if (!a.vcpuSeconds().isEmpty() && a.vcpus() > 0) {
      List<Date> x = a.vcpuSeconds().keySet().stream().map(Date::from).toList();
      List<Double> y =
          a.vcpuSeconds().values().stream().map(v -> 100 * v / (60.0 * a.vcpus())).toList();
      Charts.series(
          "CPU utilisation (% of " + a.vcpus() + " vCPUs)",
          "CPU %",
          "HH:mm",
          x,
          y,
          shaded,
          out.resolve(CPU_CHART));
    }
    Files.writeString(out.resolve(MARKDOWN), markdown(a, claims), StandardCharsets.UTF_8);
    return json;
  }

  static Map<String, Object> json(TimelineAnalysis a, Map<String, Double> claims) {
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
    json.put("level_changes", a.levelChanges().stream().map(TimelineReport::levelChange).toList());
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

  static String markdown(TimelineAnalysis a, Map<String, Double> claims) {
    StringBuilder md = new StringBuilder("# Write timeline analysis\n\n");
    md.append(
        a.phasesGiven()
            ? "Phases as given with --phase (UTC, both minutes included).\n\n"
            : "Phases detected: job windows split at empty minutes; in each, partial first and last minutes are"
                + " ramp-up and drain, and the minutes between are split into levels where the rate shifts (PELT change"
                + " points, docs/analysis.md). Writers per level: "
                + a.phases().stream()
                    .map(
                        p ->
                            p.phase().name()
                                + ": "
                                + a.writers().get(p.phase().name())
                                + " ("
                                + a.writerSources().get(p.phase().name())
                                + ")")
                    .collect(Collectors.joining(", "))
                + ". Scaling is judged only from writers that evidence gives (--jobs-in, a --connections series with a job"
                + " column, one --cpu file per job), never from the level-ratio estimate.\n\n");
    md.append("![timeline](").append(CHART).append(")\n\n");
    levelChanges(a, md);
    md.append("## Per minute\n\n")
        .append(
            "| Minute (UTC) | MB/min | MB/s | Rows | Rows/sec | Phase |\n|:---|---:|---:|---:|---:|:---|\n");
    List<Phase> labels =
        a.phasesGiven()
            ? a.phases().stream().map(PhaseSummary::phase).toList()
            : a.allDetectedPhases();
    for (Bucket b : a.perMinute().buckets()) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %,.1f | %.2f | %,d | %,.0f | %s |%n",
              HM.format(b.start()),
              b.bytes() / 1e6,
              b.mbPerSecond(),
              b.rows(),
              b.rowsPerSecond(),
              phaseAt(labels, b.start())));
    }
    md.append("\n![MB/s](").append(MB_CHART).append(")\n");
    if (!a.vcpuSeconds().isEmpty() && a.vcpus() > 0) {
      md.append(
          String.format(
              Locale.ROOT,
              "%n## CPU utilisation%n%n%d vCPUs: at most %,d vCPU-seconds per minute.%n%n"
                  + "![CPU](%s)%n%n| Minute (UTC) | Delta vCPU-sec | Utilisation |%n|:---|---:|---:|%n",
              a.vcpus(),
              60 * a.vcpus(),
              CPU_CHART));
      a.vcpuSeconds()
          .forEach(
              (minute, used) ->
                  md.append(
                      String.format(
                          Locale.ROOT,
                          "| %s | %,.0f | %.1f%% |%n",
                          HM.format(minute),
                          used,
                          100 * used / (60.0 * a.vcpus()))));
    }
    md.append(
        "\n## Summary by phase\n\n| Phase | Minutes | Rows/s (mean ± 95% CI) | sd | MB/s (mean ± 95% CI) |"
            + " Bytes/row | CPU | Rows/s per vCPU |\n|:---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (PhaseSummary p : a.phases()) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %,.0f ± %,.0f | %,.0f | %.2f ± %.2f | %,.0f | %s | %s |%n",
              p.phase().name(),
              p.phase().buckets(),
              p.rowsPerSecond().mean(),
              half(p.rowsPerSecond()),
              p.rowsPerSecond().stddev(),
              p.mbPerSecond().mean(),
              half(p.mbPerSecond()),
              p.bytesPerRow(),
              Double.isNaN(p.cpuUtilisation())
                  ? "n/a"
                  : String.format(Locale.ROOT, "%.1f%%", 100 * p.cpuUtilisation()),
              Double.isNaN(p.rowsPerSecondPerVcpu())
                  ? "n/a"
                  : String.format(Locale.ROOT, "%,.0f", p.rowsPerSecondPerVcpu())));
    }
    if (!a.comparisons().isEmpty()) {
      md.append(
              "\n## Comparison (Welch's t-test on per-minute rows/s)\n\n| A | B | B vs A | 95% CI | p | Verdict |\n")
          .append("|:---|:---|---:|:---|---:|:---|\n");
      for (Comparison c : a.comparisons()) {
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %+.2f%% | %+.2f%% to %+.2f%% | %.3f | %s |%n",
                c.a(),
                c.b(),
                c.differencePct(),
                c.ci95LowPct(),
                c.ci95HighPct(),
                c.pValue(),
                c.verdict()));
      }
    }
    md.append("\n## Diagnosis\n\n");
    for (Verdict v : a.diagnosis()) {
      md.append("- **").append(v.verdict()).append("** — ").append(v.evidence()).append('\n');
    }
    md.append(
        String.format(
            Locale.ROOT,
            "%n## Appended rows%n%nWRITE_API_TIMELINE counts rows *appended*: %,d to the"
                + " data tables over this timeline. With exactly-once, appends that were retried or whose stream was never"
                + " committed count here but not in the table, so the sum can exceed the table's row count (the published"
                + " 3-job round: +10%%).",
            a.appendedRows()));
    if (a.tableRows() > 0) {
      md.append(
          String.format(
              Locale.ROOT,
              " The table holds %,d rows (--table-rows): appended is %+.2f%% of that.",
              a.tableRows(),
              100.0 * (a.appendedRows() - a.tableRows()) / a.tableRows()));
    } else {
      md.append(" Give the table's count with --table-rows N to compare.");
    }
    md.append('\n');
    List<Object> checks = claimChecks(a, claims);
    if (!checks.isEmpty()) {
      md.append(
              "\n## Published figures against the raw data\n\n| Claim | Published | From the raw data | Difference | Verdict |\n")
          .append("|:---|---:|---:|---:|:---|\n");
      for (Object o : checks) {
        Map<?, ?> c = (Map<?, ?>) o;
        boolean matches = (Boolean) c.get("matches");
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %,.2f | %,.2f | %+.2f%% | %s |%n",
                c.get("claim"),
                c.get("claimed"),
                c.get("from_raw_data"),
                c.get("difference_pct"),
                matches
                    ? "matches"
                    : "does not match its own raw data"
                        + ((Boolean) c.get("within_ci95")
                            ? " (inside the 95% CI)"
                            : " (outside the 95% CI)")));
      }
    }
    return md.toString();
  }

  /**
   * The boundaries found, each with its evidence: a reader can check a split instead of trusting
   * it.
   */
  private static void levelChanges(TimelineAnalysis a, StringBuilder md) {
    md.append("## Level changes found\n\n");
    if (a.levelChanges().isEmpty()) {
      md.append("None: one job window at one level from its first minute to its last.\n\n");
      return;
    }
    if (a.phasesGiven()) {
      md.append("Found without your --phase flags, for comparison with them.\n\n");
    }
    md.append(
        "| At (UTC) | Kind | From | To | Rows/s before | Rows/s after | Evidence |\n|:---|:---|:---|:---|---:|---:|:---|\n");
    for (LevelChange c : a.levelChanges()) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %,.0f | %,.0f | %s |%n",
              HM.format(c.at()),
              c.kind(),
              c.before(),
              c.after(),
              c.rowsPerSecondBefore(),
              c.rowsPerSecondAfter(),
              c.evidence()));
    }
    md.append('\n');
  }

  private static String phaseAt(List<Phase> phases, Instant t) {
    return phases.stream()
        .filter(p -> !t.isBefore(p.start()) && t.isBefore(p.end()))
        .map(Phase::name)
        .findFirst()
        .orElse("-");
  }

  private static double half(Estimate e) {
    return (e.ci95High() - e.ci95Low()) / 2;
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
