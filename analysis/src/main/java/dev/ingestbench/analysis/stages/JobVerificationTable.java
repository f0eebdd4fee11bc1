package dev.ingestbench.analysis.stages;

import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.analysis.scenario.ResultRecords;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.StepStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The "Verification" section's table: each job once it had stopped, with the last stage it ran in,
 * from the result records the run wrote as it verified the job.
 */
public final class JobVerificationTable {
  private JobVerificationTable() {}

  /**
   * Whether the run recorded any job's verification (a run recorded before rounds did has none).
   */
  public static boolean recorded(List<ResultRecord> results) {
    return results.stream().anyMatch(r -> r.metric().equals("published"));
  }

  /** The heading, what the columns mean, and a row per job. */
  public static void write(Document doc, List<StepStatus> steps, List<ResultRecord> results) {
    // Each job is verified once it has stopped, with the last stage it ran in.
    Map<String, String> lastStage = new LinkedHashMap<>();
    for (StepStatus s : steps) {
      s.jobs().forEach(job -> lastStage.put(job, s.stage()));
    }
    Table t =
        Table.of(
            Column.text("Job"),
            Column.text("Last stage"),
            Column.number("Published"),
            Column.number("Accounted for"),
            Column.number("Duplicates"),
            Column.number("Source duplicates"),
            Column.number("Dead-lettered"),
            Column.number("Left"),
            Column.number("Misrouted"),
            Column.text("Lost"));
    lastStage.forEach(
        (job, stage) -> {
          Map<String, Double> m = new LinkedHashMap<>();
          results.stream()
              .filter(r -> r.job().equals(job) && r.stage().equals(stage))
              .forEach(r -> m.put(r.metric(), r.value()));
          t.row(
              job,
              stage,
              count(m.get("published")),
              Numbers.f0(m.getOrDefault("accounted_for", 0.0)),
              Numbers.f0(m.getOrDefault("duplicates", 0.0)),
              count(m.get("source_duplicates")),
              count(m.get("dead_lettered")),
              count(m.get(ResultRecords.LEFT)),
              misrouted(m.get("misrouted_rows")),
              lost(m));
        });
    doc.heading(2, "Verification")
        .paragraph(
            "Each job once it had stopped, with the last stage it ran in: every job reads every"
                + " message of its own subscription; the BigQuery emulator checks every row's event index;"
                + " **left** is what was still in the job's subscription (or unread by its Kafka group), counted by"
                + " reading it (n/a where the job stopped by itself once it had accounted for every message);"
                + " **misrouted**: rows in another of the job's tables than their event's (n/a where"
                + " the sink could not check them); **lost** = published - accounted for - left,"
                + " never clamped.")
        .table(t);
  }

  /** Misrouted rows, in bold when any (the run fails); n/a where they were not checked. */
  private static String misrouted(Double rows) {
    return rows == null ? "n/a" : rows == 0 ? "0" : "**" + Numbers.f0(rows) + "**";
  }

  /** A count that may be missing: "n/a" then. */
  private static String count(Double value) {
    return value == null ? "n/a" : Numbers.f0(value);
  }

  /** A job's loss, in bold when there is any; or why it was not counted. */
  private static String lost(Map<String, Double> m) {
    if (m.containsKey("lost")) {
      return m.get("lost") == 0 ? "0" : "**" + Numbers.f0(m.get("lost")) + "**";
    }
    if (m.containsKey("unread")) { // a run recorded before jobs were verified once stopped
      return "not counted (" + Numbers.f0(m.get("unread")) + " not read when the stage ended)";
    }
    return "not verified (see the run's output)";
  }
}
