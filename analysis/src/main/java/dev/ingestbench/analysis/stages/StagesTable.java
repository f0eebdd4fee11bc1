package dev.ingestbench.analysis.stages;

import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.contracts.StepStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The "Stages" section: each stage as it ran, from its status marker. */
public final class StagesTable {
  private StagesTable() {}

  /**
   * Writes the section (nothing for a run without markers, one recorded before rounds wrote them)
   * and returns each stage as a phase, for the charts.
   */
  public static List<Phase> write(Document doc, List<StepStatus> steps, boolean onDataflow) {
    List<Phase> phases = new ArrayList<>();
    if (steps.isEmpty()) {
      return phases;
    }
    Table t =
        Table.of(
            Column.number("#"),
            Column.text("Stage"),
            Column.text("Condition"),
            Column.text("Met"),
            Column.text("Started (UTC)"),
            Column.number("Lasted"),
            Column.text("Jobs running"),
            Column.text("Measured in"));
    for (StepStatus s : steps) {
      Instant start = Instant.parse(s.startedAt());
      Instant end = Instant.parse(s.endedAt());
      phases.add(new Phase(s.stage(), 0, 0, start, end));
      t.row(
          s.step().substring(0, 2),
          s.stage(),
          s.condition(),
          s.conditionMet() ? "yes" : "no (gave up at max)",
          start.toString().substring(11, 19),
          Duration.between(start, end).getSeconds() + " s",
          String.join(", ", s.jobs()),
          "segment-" + s.segment());
    }
    doc.heading(2, "Stages").table(t);
    if (steps.stream().map(StepStatus::segment).distinct().count() > 1) {
      doc.paragraph(
          onDataflow
              ? "The run was resumed: a later segment launched again the jobs that were running before its first stage"
                  + " and warmed them up (not measured); the subscriptions kept their backlog. Compare stages measured in"
                  + " different segments with that in mind."
              : "The run was resumed: a later segment restarted the emulators, published the backlog again and "
                  + "warmed up the jobs that were running before its first stage (not measured). Compare stages "
                  + "measured in different segments with that in mind.");
    }
    return phases;
  }
}
