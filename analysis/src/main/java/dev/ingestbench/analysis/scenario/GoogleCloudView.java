package dev.ingestbench.analysis.scenario;

import dev.ingestbench.analysis.diagnosis.Verdict;
import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.StepStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sections of a Dataflow run's report that Google Cloud wrote: WRITE_API_TIMELINE's and Cloud
 * Monitoring's figures per stage, the timeline's verdicts, and how the job-level figures were
 * measured.
 */
final class GoogleCloudView {
  private GoogleCloudView() {}

  /**
   * A Dataflow run: what BigQuery's WRITE_API_TIMELINE and Cloud Monitoring say about each stage,
   * read after the run (results with metrics {@code bigquery_*} and {@code monitoring_*}), and how
   * the job-level figures were measured.
   */
  static void write(ScenarioRunData data, Document doc) {
    List<StepStatus> steps = data.steps();
    List<ResultRecord> results = data.results();
    Table t =
        Table.of(
            Column.text("Stage"),
            Column.number("Table rows/s"),
            Column.text("95% CI"),
            Column.number("Table MB/s"),
            Column.number("Minutes"),
            Column.number("Peak connections"),
            Column.text("vCPUs busy per job"));
    for (StepStatus s : steps) {
      Map<String, Double> all = new LinkedHashMap<>();
      List<String> vcpus = new ArrayList<>();
      for (ResultRecord r : results) {
        if (r.stage().equals(s.stage()) && r.iteration() == s.iteration()) {
          if (r.job().equals(ResultRecord.ALL_JOBS)) {
            all.put(r.metric(), r.value());
          } else if (r.metric().equals("monitoring_vcpus_busy")) {
            vcpus.add(r.job() + " " + Numbers.f1(r.value()));
          }
        }
      }
      t.row(
          s.stage(),
          Numbers.orMissing(all.get("bigquery_rows_per_second"), Numbers::f0),
          all.containsKey("bigquery_rows_per_second_ci95_low")
              ? Numbers.range(
                  all.get("bigquery_rows_per_second_ci95_low"),
                  all.get("bigquery_rows_per_second_ci95_high"))
              : Numbers.MISSING,
          Numbers.orMissing(all.get("bigquery_mb_per_second"), Numbers::f2),
          Numbers.orMissing(all.get("bigquery_minutes"), Numbers::f0),
          Numbers.orMissing(all.get("monitoring_peak_connections"), Numbers::f0),
          vcpus.isEmpty() ? Numbers.MISSING : String.join(", ", vcpus));
    }
    doc.heading(2, "Google Cloud's view")
        .paragraph(
            "Read after the run: rows/s and MB/s of the run's tables from INFORMATION_SCHEMA.WRITE_API_TIMELINE"
                + " (whole minutes inside the stage, all jobs together; `"
                + RunFiles.GCP_TIMELINE
                + "`), the project's peak concurrent Storage Write API connections and each job's vCPUs busy from"
                + " Cloud Monitoring (`"
                + RunFiles.GCP_MONITORING
                + "`). A stage shorter than two minutes"
                + " has no whole minute; a missing figure means the view had no data (or no permission, as the run"
                + " said). `ingestbench analyze --timeline "
                + RunFiles.GCP_TIMELINE
                + "` gives that timeline's own phases and quota verdicts.")
        .table(t);
    timelineDiagnosis(data, doc);
    doc.heading(2, "How it was measured")
        .paragraph(
            "Every poll interval the runner read each Dataflow job's counters through the Dataflow API: rows"
                + " appended by BigQueryIO's Storage Write step (`recordsAppended`), payload bytes the consumer"
                + " converted (`message_bytes`) and the workers' vCPU time (`TotalVcpuTime`); the intervals are in `"
                + RunFiles.SCENARIO_SAMPLES
                + "` and every job-level figure above is computed from them. Every"
                + " job launched, with its Dataflow id and final state, is in `"
                + RunFiles.DATAFLOW_JOBS
                + "`. Rows are not checked one by one on Dataflow: duplicates and losses are verified by the local"
                + " target, which runs the same consumer code.");
  }

  /** The verdicts of the Dataflow run's timeline, when the run wrote them. */
  private static void timelineDiagnosis(ScenarioRunData data, Document doc) {
    Path diagnosis = data.dir().resolve(RunFiles.GCP_DIAGNOSIS);
    if (!Files.isRegularFile(diagnosis)) {
      return;
    }
    Verdict[] verdicts;
    try {
      verdicts = RunJson.read(diagnosis, Verdict[].class);
    } catch (IOException e) {
      verdicts = new Verdict[0];
    }
    List<String> lines = new ArrayList<>();
    if (verdicts.length == 0) {
      lines.add("No stage had a whole minute in the timeline: nothing to judge.");
    }
    for (Verdict v : verdicts) {
      lines.add("**" + v.verdict() + "**: " + v.evidence());
    }
    doc.heading(3, "Diagnosis from the timeline")
        .paragraph(
            "The rules of docs/methodology.md applied to WRITE_API_TIMELINE with"
                + " each stage's whole minutes as a phase (as `ingestbench analyze` does with `--phase`):")
        .bullets(lines);
  }
}
