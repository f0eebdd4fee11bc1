package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.stats.Comparison;
import dev.ingestbench.analysis.stats.PhaseSummary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Date;
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
    Map<String, Object> json = TimelineReportJson.of(a, claims);
    JsonTree.write(json, out.resolve(JSON));
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

  static String markdown(TimelineAnalysis a, Map<String, Double> claims) {
    Document doc = new Document().heading(1, "Write timeline analysis");
    doc.paragraph(phasesNote(a)).image("timeline", CHART);
    levelChanges(a, doc);
    perMinute(a, doc);
    cpu(a, doc);
    phaseSummary(a, doc);
    comparisons(a, doc);
    doc.heading(2, "Diagnosis");
    if (!a.diagnosis().isEmpty()) {
      doc.bullets(
          a.diagnosis().stream().map(v -> "**" + v.verdict() + "** — " + v.evidence()).toList());
    }
    doc.heading(2, "Appended rows").paragraph(appendedRows(a));
    claims(TimelineReportJson.claimChecks(a, claims), doc);
    return doc.markdown();
  }

  /** How the phases were found: given, or detected (and whose writers each has). */
  private static String phasesNote(TimelineAnalysis a) {
    if (a.phasesGiven()) {
      return "Phases as given with --phase (UTC, both minutes included).";
    }
    return "Phases detected: job windows split at empty minutes; in each, partial first and last"
        + " minutes are ramp-up and drain, and the minutes between are split into levels where the"
        + " rate shifts (PELT change points, docs/analysis.md). Writers per level: "
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
        + ". Scaling is judged only from writers that evidence gives (--jobs-in, a --connections"
        + " series with a job column, one --cpu file per job), never from the level-ratio"
        + " estimate.";
  }

  /**
   * The boundaries found, each with its evidence: a reader can check a split instead of trusting
   * it.
   */
  private static void levelChanges(TimelineAnalysis a, Document doc) {
    doc.heading(2, "Level changes found");
    if (a.levelChanges().isEmpty()) {
      doc.paragraph("None: one job window at one level from its first minute to its last.");
      return;
    }
    if (a.phasesGiven()) {
      doc.paragraph("Found without your --phase flags, for comparison with them.");
    }
    Table t =
        Table.of(
            Column.text("At (UTC)"),
            Column.text("Kind"),
            Column.text("From"),
            Column.text("To"),
            Column.number("Rows/s before"),
            Column.number("Rows/s after"),
            Column.text("Evidence"));
    for (LevelChange c : a.levelChanges()) {
      t.row(
          HM.format(c.at()),
          c.kind(),
          c.before(),
          c.after(),
          Numbers.f0(c.rowsPerSecondBefore()),
          Numbers.f0(c.rowsPerSecondAfter()),
          c.evidence());
    }
    doc.table(t);
  }

  private static void perMinute(TimelineAnalysis a, Document doc) {
    List<Phase> labels =
        a.phasesGiven()
            ? a.phases().stream().map(PhaseSummary::phase).toList()
            : a.allDetectedPhases();
    Table t =
        Table.of(
            Column.text("Minute (UTC)"),
            Column.number("MB/min"),
            Column.number("MB/s"),
            Column.number("Rows"),
            Column.number("Rows/sec"),
            Column.text("Phase"));
    for (Bucket b : a.perMinute().buckets()) {
      t.row(
          HM.format(b.start()),
          String.format(Locale.ROOT, "%,.1f", b.bytes() / 1e6),
          Numbers.f2(b.mbPerSecond()),
          Numbers.count(b.rows()),
          Numbers.f0(b.rowsPerSecond()),
          phaseAt(labels, b.start()));
    }
    doc.heading(2, "Per minute").table(t).image("MB/s", MB_CHART);
  }

  private static void cpu(TimelineAnalysis a, Document doc) {
    if (a.vcpuSeconds().isEmpty() || a.vcpus() <= 0) {
      return;
    }
    Table t =
        Table.of(
            Column.text("Minute (UTC)"),
            Column.number("Delta vCPU-sec"),
            Column.number("Utilisation"));
    a.vcpuSeconds()
        .forEach(
            (minute, used) ->
                t.row(HM.format(minute), Numbers.f0(used), Numbers.pct(used / (60.0 * a.vcpus()))));
    doc.heading(2, "CPU utilisation")
        .paragraph(
            String.format(
                Locale.ROOT,
                "%d vCPUs: at most %,d vCPU-seconds per minute.",
                a.vcpus(),
                60 * a.vcpus()))
        .image("CPU", CPU_CHART)
        .table(t);
  }

  private static void phaseSummary(TimelineAnalysis a, Document doc) {
    Table t =
        Table.of(
            Column.text("Phase"),
            Column.number("Minutes"),
            Column.number("Rows/s (mean ± 95% CI)"),
            Column.number("sd"),
            Column.number("MB/s (mean ± 95% CI)"),
            Column.number("Bytes/row"),
            Column.number("CPU"),
            Column.number("Rows/s per vCPU"));
    for (PhaseSummary p : a.phases()) {
      t.row(
          p.phase().name(),
          Integer.toString(p.phase().buckets()),
          p.rowsPerSecond().plusMinus(Numbers::f0),
          Numbers.f0(p.rowsPerSecond().stddev()),
          p.mbPerSecond().plusMinus(Numbers::f2),
          Numbers.f0(p.bytesPerRow()),
          Numbers.pct(p.cpuUtilisation()),
          Numbers.f0(p.rowsPerSecondPerVcpu()));
    }
    doc.heading(2, "Summary by phase").table(t);
  }

  private static void comparisons(TimelineAnalysis a, Document doc) {
    if (a.comparisons().isEmpty()) {
      return;
    }
    Table t =
        Table.of(
            Column.text("A"),
            Column.text("B"),
            Column.number("B vs A"),
            Column.text("95% CI"),
            Column.number("p"),
            Column.text("Verdict"));
    for (Comparison c : a.comparisons()) {
      t.row(
          c.a(),
          c.b(),
          String.format(Locale.ROOT, "%+.2f%%", c.differencePct()),
          String.format(Locale.ROOT, "%+.2f%% to %+.2f%%", c.ci95LowPct(), c.ci95HighPct()),
          String.format(Locale.ROOT, "%.3f", c.pValue()),
          c.verdict());
    }
    doc.heading(2, "Comparison (Welch's t-test on per-minute rows/s)").table(t);
  }

  /** Appended rows, which can exceed the table's count under exactly-once, and the table's. */
  private static String appendedRows(TimelineAnalysis a) {
    String text =
        String.format(
            Locale.ROOT,
            "WRITE_API_TIMELINE counts rows *appended*: %,d to the data tables over this timeline."
                + " With exactly-once, appends that were retried or whose stream was never"
                + " committed count here but not in the table, so the sum can exceed the table's"
                + " row count (the published 3-job round: +10%%).",
            a.appendedRows());
    if (a.tableRows() <= 0) {
      return text + " Give the table's count with --table-rows N to compare.";
    }
    return text
        + String.format(
            Locale.ROOT,
            " The table holds %,d rows (--table-rows): appended is %+.2f%% of that.",
            a.tableRows(),
            100.0 * (a.appendedRows() - a.tableRows()) / a.tableRows());
  }

  /** Each published figure (--claim) against what the raw data give. */
  private static void claims(List<Object> checks, Document doc) {
    if (checks.isEmpty()) {
      return;
    }
    Table t =
        Table.of(
            Column.text("Claim"),
            Column.number("Published"),
            Column.number("From the raw data"),
            Column.number("Difference"),
            Column.text("Verdict"));
    for (Object o : checks) {
      Map<?, ?> c = (Map<?, ?>) o;
      String verdict =
          (Boolean) c.get("matches")
              ? "matches"
              : "does not match its own raw data"
                  + ((Boolean) c.get("within_ci95")
                      ? " (inside the 95% CI)"
                      : " (outside the 95% CI)");
      t.row(
          String.valueOf(c.get("claim")),
          String.format(Locale.ROOT, "%,.2f", c.get("claimed")),
          String.format(Locale.ROOT, "%,.2f", c.get("from_raw_data")),
          String.format(Locale.ROOT, "%+.2f%%", c.get("difference_pct")),
          verdict);
    }
    doc.heading(2, "Published figures against the raw data").table(t);
  }

  private static String phaseAt(List<Phase> phases, Instant t) {
    return phases.stream()
        .filter(p -> !t.isBefore(p.start()) && t.isBefore(p.end()))
        .map(Phase::name)
        .findFirst()
        .orElse("-");
  }
}
