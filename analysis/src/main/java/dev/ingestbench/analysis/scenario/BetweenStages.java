package dev.ingestbench.analysis.scenario;

import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.analysis.stats.Comparison;
import dev.ingestbench.contracts.ResultRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A staged report's comparisons: each job (and all jobs) in a stage against the last earlier stage
 * it ran in, Welch's t-test on the per-second rates of their steady seconds.
 */
final class BetweenStages {
  private BetweenStages() {}

  /**
   * Each job (and all jobs) in a stage against the previous stage it ran in: Welch on per-second
   * rates.
   */
  static void write(Map<String, Map<String, StageMeasures>> byStage, Document doc) {
    Table t =
        Table.of(
            Column.text("Job"),
            Column.text("Stages"),
            Column.text("Rows/s"),
            Column.number("Change"),
            Column.text("95% CI"),
            Column.text("Verdict"));
    List<String> stages = new ArrayList<>(byStage.keySet());
    for (int i = 1; i < stages.size(); i++) {
      for (Map.Entry<String, StageMeasures> e : byStage.get(stages.get(i)).entrySet()) {
        String job = e.getKey();
        for (int k = i - 1; k >= 0; k--) {
          StageMeasures before = byStage.get(stages.get(k)).get(job);
          if (before != null) {
            compare(t, job, stages.get(k), before, stages.get(i), e.getValue());
            break;
          }
        }
      }
    }
    if (t.rows().isEmpty()) {
      return;
    }
    doc.heading(2, "Between stages")
        .paragraph(
            "Each job's steady rows/s in a stage against the last earlier stage it ran in"
                + " (Welch's t-test on the rates of the steady samples, 95% CI of the difference). Those rates are not"
                + " independent, so read the interval as a guide to precision.")
        .table(t);
  }

  /** One job's row of the comparison between stages. */
  private static void compare(
      Table t,
      String job,
      String earlier,
      StageMeasures before,
      String later,
      StageMeasures after) {
    String name = job.equals(ResultRecord.ALL_JOBS) ? "**all jobs**" : job;
    String stages = earlier + " → " + later;
    String rates =
        Numbers.f0(before.rowsPerSecond().mean())
            + " → "
            + Numbers.f0(after.rowsPerSecond().mean());
    if (before.rows() == 0 || after.rows() == 0) {
      t.row(
          name,
          stages,
          rates,
          "n/a",
          "n/a",
          "not compared: no rows in one of them (a job starting up writes none)");
      return;
    }
    Comparison c =
        Comparison.of(earlier, before.steadyRowsPerSecond(), later, after.steadyRowsPerSecond());
    t.row(
        name,
        stages,
        rates,
        Numbers.signedPct(c.differencePct()),
        Double.isNaN(c.ci95LowPct())
            ? "n/a"
            : Numbers.signedPct(c.ci95LowPct()) + " to " + Numbers.signedPct(c.ci95HighPct()),
        c.verdict());
  }
}
