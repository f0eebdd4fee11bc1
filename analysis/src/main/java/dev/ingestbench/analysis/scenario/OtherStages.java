package dev.ingestbench.analysis.scenario;

import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.contracts.ResultLabel;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.StepStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sections of a scenario report on stages that run no job of their own: load tests (the
 * source's capacity) and max-rate searches, from their results (each has its own report in its
 * directory).
 */
final class OtherStages {
  private OtherStages() {}

  /**
   * The load-test stages' figures, from their results (each test's own report is in its directory).
   */
  static void sourceCapacity(ScenarioRunData data, Document doc) {
    List<StepStatus> steps = data.steps();
    List<StepStatus> tests = steps.stream().filter(StepStatus::isLoadTest).toList();
    if (tests.isEmpty()) {
      return;
    }
    Table t =
        Table.of(
            Column.text("Stage"),
            Column.text("Jobs running"),
            Column.number("Published msg/s"),
            Column.text("95% CI"),
            Column.number("Received msg/s"),
            Column.text("95% CI"),
            Column.number("Publish p99 ms"),
            Column.number("End-to-end p99 ms"),
            Column.number("Missing"),
            Column.number("Duplicates"));
    for (StepStatus s : tests) {
      Map<String, Double> m = data.metrics(s);
      t.row(
          "[" + s.stage() + "](pubsub-load-" + s.step() + "/report.md)",
          s.jobs().isEmpty() ? "none" : String.join(", ", s.jobs()),
          Numbers.orMissing(m.get("pubsub_published_messages_per_second"), Numbers::f0),
          Numbers.range(
              m.get("pubsub_published_messages_per_second_ci95_low"),
              m.get("pubsub_published_messages_per_second_ci95_high")),
          Numbers.orMissing(m.get("pubsub_received_messages_per_second"), Numbers::f0),
          Numbers.range(
              m.get("pubsub_received_messages_per_second_ci95_low"),
              m.get("pubsub_received_messages_per_second_ci95_high")),
          Numbers.orMissing(m.get("pubsub_publish_p99_ms"), Numbers::f1),
          Numbers.orMissing(m.get("pubsub_end_to_end_p99_ms"), Numbers::f1),
          Numbers.orMissing(m.get("pubsub_missing"), Numbers::f0),
          Numbers.orMissing(m.get("pubsub_duplicates"), Numbers::f0));
    }
    doc.heading(2, "Source capacity (Pub/Sub load-test stages)")
        .paragraph(
            "Each ran `ingestbench pubsub-load` against the run's own emulator on a topic of its own"
                + " (docs/pubsub-load.md): what the source side of this machine delivers, with the jobs shown running."
                + " Rates are the mean of the test's per-second samples with a 95% confidence interval; its report and"
                + " raw samples are in `pubsub-load-STEP/`.")
        .table(t);
  }

  /** The max-rate stages' answers, from their results (each search's report is its round's). */
  static void maxRates(ScenarioRunData data, Document doc) {
    List<StepStatus> steps = data.steps();
    List<ResultRecord> results = data.results();
    List<StepStatus> searches = steps.stream().filter(StepStatus::isMaxRateSearch).toList();
    if (searches.isEmpty()) {
      return;
    }
    Table t =
        Table.of(
            Column.text("Stage"),
            Column.text("Job"),
            Column.text("Jobs running"),
            Column.number("Highest sustained rows/s"),
            Column.text("95% CI"),
            Column.number("Per vCPU"),
            Column.number("Rows per consumer CPU-s"),
            Column.number("Publisher alone msg/s"),
            Column.number("Probes"),
            Column.text("Limited by"));
    for (StepStatus s : searches) {
      Map<String, Double> m = new LinkedHashMap<>();
      String[] job = {"?"};
      String[] limit = {"?"};
      results.stream()
          .filter(r -> r.stage().equals(s.stage()) && r.iteration() == s.iteration())
          .forEach(
              r -> {
                m.put(r.metric(), r.value());
                job[0] = r.job();
                if (r.labels().containsKey(ResultLabel.LIMITED_BY.key())) {
                  limit[0] = r.labels().get(ResultLabel.LIMITED_BY.key());
                }
              });
      t.row(
          "[" + s.stage() + "](max-rate-" + s.step() + "/report.md)",
          job[0],
          s.jobs().isEmpty() ? "none" : String.join(", ", s.jobs()),
          m.containsKey("max_sustainable_rows_per_second")
              ? Numbers.orMissing(m.get("max_sustainable_rows_per_second"), Numbers::f0)
              : "none sustained",
          Numbers.range(
              m.get("max_sustainable_rows_per_second_ci95_low"),
              m.get("max_sustainable_rows_per_second_ci95_high")),
          Numbers.orMissing(m.get("max_sustainable_rows_per_second_per_vcpu"), Numbers::f0),
          Numbers.orMissing(m.get("max_rate_rows_per_consumer_cpu_second"), Numbers::f0),
          Numbers.orMissing(m.get("publisher_capacity_messages_per_second"), Numbers::f0),
          Numbers.orMissing(m.get("max_rate_probes"), Numbers::f0),
          limit[0]);
    }
    doc.heading(2, "Highest sustained rate (max-rate stages)")
        .paragraph(
            "Each ran `ingestbench round --find-max-rate` with its job's settings on servers of its own"
                + " (docs/max-rate.md), sharing this machine with the jobs shown running: the highest rate"
                + " the job kept up with inside the latency SLO, the 95% interval of its per-second writes,"
                + " and the limit that ended the search; each search's report is in `max-rate-STEP/`.")
        .table(t);
  }
}
