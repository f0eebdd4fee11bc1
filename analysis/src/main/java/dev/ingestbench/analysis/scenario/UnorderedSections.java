package dev.ingestbench.analysis.scenario;

import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.analysis.report.Charts;
import dev.ingestbench.analysis.stats.Comparison;
import dev.ingestbench.analysis.stats.Estimate;
import dev.ingestbench.contracts.StepStatus;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sections of an unordered scenario's report: every iteration in the order it ran, each
 * configuration's mean over its iterations, and every pair of configurations compared.
 */
final class UnorderedSections {
  /** The results' metric of rows found in another of the job's tables than their event's. */
  private static final String MISROUTED = "misrouted_rows";

  private UnorderedSections() {}

  /** Misrouted rows, in bold when any; n/a where they were not checked. */
  private static String misrouted(Double rows) {
    return rows == null ? "n/a" : rows == 0 ? "0" : "**" + Numbers.f0(rows) + "**";
  }

  static void write(ScenarioRunData data, Document doc) throws IOException {
    List<StepStatus> steps = data.steps();
    Map<String, List<Double>> rates = new LinkedHashMap<>();
    Map<String, Map<String, Double>> sums = new LinkedHashMap<>();
    Table iterations =
        Table.of(
            Column.text("Step"),
            Column.text("Configuration"),
            Column.number("Iteration"),
            Column.number("Rows/s"),
            Column.number("Rows per CPU-s"),
            Column.number("Lost"),
            Column.number("Duplicates"),
            Column.number("Misrouted"),
            Column.text("Started (UTC)"));
    List<StepStatus> ordered =
        steps.stream().sorted(Comparator.comparing(StepStatus::startedAt)).toList();
    for (StepStatus s : ordered) {
      Map<String, Double> m = data.metrics(s);
      if (m.containsKey("rows_per_second")) {
        rates.computeIfAbsent(s.stage(), k -> new ArrayList<>()).add(m.get("rows_per_second"));
      }
      Map<String, Double> total = sums.computeIfAbsent(s.stage(), k -> new LinkedHashMap<>());
      total.merge("lost", m.getOrDefault("lost", 0.0), Double::sum);
      total.merge("duplicates", m.getOrDefault("duplicates", 0.0), Double::sum);
      if (m.containsKey(MISROUTED)) { // not where the sink cannot check it (Dataflow's BigQuery)
        total.merge(MISROUTED, m.get(MISROUTED), Double::sum);
      }
      iterations.row(
          s.step(),
          s.stage(),
          Integer.toString(s.iteration()),
          Numbers.orMissing(m.get("rows_per_second"), Numbers::f0),
          Numbers.orMissing(m.get("rows_per_cpu_second"), Numbers::f0),
          Numbers.f0(m.getOrDefault("lost", 0.0)),
          Numbers.f0(m.getOrDefault("duplicates", 0.0)),
          misrouted(m.get(MISROUTED)),
          s.startedAt().substring(11, 19));
    }
    doc.heading(2, "Iterations")
        .paragraph("In the order they ran (shuffled, each configuration first equally often).")
        .table(iterations)
        .paragraph("Each iteration's directory under `iterations/` holds its own round report.");
    Charts.iterations(
        "Steady rows/s of each iteration, per configuration",
        "rows/s",
        rates,
        data.dir().resolve(ScenarioReport.ITERATIONS_CHART));
    doc.image("Rows/s per iteration", ScenarioReport.ITERATIONS_CHART);
    configurations(doc, rates, sums);
  }

  /** Each configuration's mean over its iterations, and every pair compared. */
  private static void configurations(
      Document doc, Map<String, List<Double>> rates, Map<String, Map<String, Double>> sums) {
    Table t =
        Table.of(
            Column.text("Configuration"),
            Column.number("Iterations"),
            Column.number("Rows/s mean"),
            Column.text("95% CI"),
            Column.number("SD"),
            Column.number("Lost"),
            Column.number("Duplicates"),
            Column.number("Misrouted"));
    rates.forEach(
        (config, values) -> {
          Estimate e = Estimate.of(values);
          t.row(
              config,
              Long.toString(e.n()),
              Numbers.f0(e.mean()),
              Numbers.f0(e.ci95Low()) + " – " + Numbers.f0(e.ci95High()),
              Numbers.f0(e.stddev()),
              Numbers.f0(sums.get(config).get("lost")),
              Numbers.f0(sums.get(config).get("duplicates")),
              misrouted(sums.get(config).get(MISROUTED)));
        });
    doc.heading(2, "Configurations")
        .paragraph(
            "Mean of the iterations' steady rows/s with a 95% confidence interval over"
                + " iterations (Student's t, n − 1 degrees of freedom): iterations are independent runs, so this"
                + " interval, unlike a per-second one, is a fair measure of run-to-run noise.")
        .table(t);
    List<String> configs = new ArrayList<>(rates.keySet());
    if (configs.size() < 2) {
      return;
    }
    Table pairs =
        Table.of(
            Column.text("A"),
            Column.text("B"),
            Column.number("Change B vs A"),
            Column.text("95% CI"),
            Column.text("Verdict"));
    for (int i = 0; i < configs.size(); i++) {
      for (int j = i + 1; j < configs.size(); j++) {
        Comparison c =
            Comparison.of(
                configs.get(i),
                rates.get(configs.get(i)),
                configs.get(j),
                rates.get(configs.get(j)));
        pairs.row(
            configs.get(i),
            configs.get(j),
            Numbers.signedPct(c.differencePct()),
            Double.isNaN(c.ci95LowPct())
                ? "n/a"
                : Numbers.signedPct(c.ci95LowPct()) + " to " + Numbers.signedPct(c.ci95HighPct()),
            c.verdict());
      }
    }
    doc.heading(2, "Comparisons")
        .paragraph("Welch's t-test on the iterations' rows/s.")
        .table(pairs);
  }
}
