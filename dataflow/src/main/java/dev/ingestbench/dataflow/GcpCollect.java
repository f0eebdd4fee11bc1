package dev.ingestbench.dataflow;

import static dev.ingestbench.harness.staged.RunLog.say;

import dev.ingestbench.analysis.diagnosis.Diagnoser;
import dev.ingestbench.analysis.diagnosis.Verdict;
import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.model.Timeline;
import dev.ingestbench.analysis.model.TimelineRow;
import dev.ingestbench.analysis.phases.PhaseSpec;
import dev.ingestbench.analysis.report.TimelineAnalysis;
import dev.ingestbench.analysis.source.BigQueryTimelineSource;
import dev.ingestbench.analysis.source.MonitoringSource;
import dev.ingestbench.analysis.stats.Estimate;
import dev.ingestbench.contracts.DataflowJobRecord;
import dev.ingestbench.contracts.ResultLabel;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.contracts.StepStatus;
import dev.ingestbench.contracts.TimelineColumns;
import dev.ingestbench.harness.staged.RunDirectory;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * After a Dataflow run: Google Cloud's own account of it. The per-minute WRITE_API_TIMELINE of the
 * run's tables (BigQuery) gives every stage's table-level rows/s and MB/s; Cloud Monitoring gives
 * each job's vCPUs busy and the project's peak concurrent connections per stage. Raw series go to
 * {@code write_api_timeline.csv} and {@code monitoring.csv}, the figures to results.jsonl (metrics
 * {@code bigquery_*} and {@code monitoring_*}). Both views lag a few minutes behind, and a missing
 * permission costs this section, not the run: the message names the role to grant.
 */
public final class GcpCollect {
  static final String PREFIX_BIGQUERY = "bigquery_";
  static final String PREFIX_MONITORING = "monitoring_";

  /**
   * As {@code bq query --format=csv} writes timestamps, so {@code ingestbench analyze --timeline}
   * reads the file.
   */
  private static final DateTimeFormatter BQ_TIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

  private final GcpSettings target;
  private final RunDirectory dir;
  private final ScenarioRun run;
  private final Diagnoser.Topology topology;

  /**
   * @param topology the scenario's tables, workers, jobs and pooling, for the timeline's diagnosis
   *     (its observed connections come from Monitoring)
   */
  public GcpCollect(
      GcpSettings target, RunDirectory dir, ScenarioRun run, Diagnoser.Topology topology) {
    this.target = target;
    this.dir = dir;
    this.run = run;
    this.topology = topology;
  }

  public void collect(List<String> tables, List<DataflowJobRecord> jobs) throws IOException {
    List<StepStatus> steps = dir.finishedSteps();
    if (steps.isEmpty() || jobs.isEmpty()) {
      return;
    }
    Instant from =
        jobs.stream()
            .map(j -> Instant.parse(j.launchedAt()))
            .min(Instant::compareTo)
            .orElseThrow()
            .truncatedTo(ChronoUnit.MINUTES);
    Instant to = Instant.now().plus(1, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.MINUTES);
    List<ResultRecord> records = new ArrayList<>();
    List<TimelineRow> rows = null;
    try {
      rows =
          target
              .timeline()
              .read(
                  new BigQueryTimelineSource.Request(
                      target.project(), target.region(), target.dataset(), tables, from, to));
      writeTimeline(rows);
      for (StepStatus step : steps) {
        timelineRecords(step, rows, records);
      }
      say(
          "Read %,d WRITE_API_TIMELINE rows of %s into %s",
          rows.size(), tables, RunFiles.GCP_TIMELINE);
    } catch (IOException | RuntimeException e) {
      say(
          "Could not read WRITE_API_TIMELINE (%s): the report has no table-level view. It needs"
              + " roles/bigquery.metadataViewer and roles/bigquery.jobUser on the project (docs/dataflow.md, IAM)",
          e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    try (MonitoringSource monitoring = target.monitoring();
        Writer out =
            Files.newBufferedWriter(
                dir.root().resolve(RunFiles.GCP_MONITORING), StandardCharsets.UTF_8)) {
      out.write("minute,metric,job,value\n");
      for (DataflowJobRecord job : jobs) {
        if (job.role().equals("backlog") || job.role().equals("live")) {
          continue;
        }
        Map<Instant, Double> vcpu = monitoring.vcpuSecondsPerMinute(job.jobName(), from, to);
        for (Map.Entry<Instant, Double> e : vcpu.entrySet()) {
          out.write(
              String.format(
                  Locale.ROOT, "%s,vcpu_seconds,%s,%.3f%n", e.getKey(), job.role(), e.getValue()));
        }
        for (StepStatus step : steps) {
          if (step.jobs().contains(job.role()) && step.segment() == job.segment()) {
            List<Double> busy = new ArrayList<>();
            vcpu.forEach(
                (minute, seconds) -> {
                  if (inside(minute, step)) {
                    busy.add(seconds / 60.0);
                  }
                });
            add(
                records,
                step,
                job.role(),
                "monitoring_vcpus_busy",
                Estimate.of(busy).mean(),
                "vCPUs");
          }
        }
      }
      for (StepStatus step : steps) {
        int peak =
            monitoring.peakConnections(
                Instant.parse(step.startedAt()), Instant.parse(step.endedAt()));
        add(
            records,
            step,
            ResultRecord.ALL_JOBS,
            "monitoring_peak_connections",
            peak,
            "connections");
      }
      say(
          "Read vCPUs per job and concurrent connections from Cloud Monitoring into %s",
          RunFiles.GCP_MONITORING);
    } catch (IOException | RuntimeException e) {
      say(
          "Could not read Cloud Monitoring (%s): the report has no vCPU or connection figures from it. It needs"
              + " roles/monitoring.viewer on the project",
          e.getMessage());
    }
    dir.replaceResults(
        r -> r.metric().startsWith(PREFIX_BIGQUERY) || r.metric().startsWith(PREFIX_MONITORING),
        records);
    if (rows != null) {
      int peak =
          (int)
              records.stream()
                  .filter(r -> r.metric().equals("monitoring_peak_connections"))
                  .mapToDouble(ResultRecord::value)
                  .max()
                  .orElse(0);
      diagnose(rows, steps, peak);
    }
  }

  /**
   * The timeline analysis of {@code ingestbench analyze} with each stage's whole minutes as a
   * phase: its verdicts (quota sawtooth, near the quota, scaling between stages, connections) go to
   * {@link RunFiles#GCP_DIAGNOSIS} for the report. Stages without a whole minute are left out.
   */
  private void diagnose(List<TimelineRow> rows, List<StepStatus> steps, int peakConnections)
      throws IOException {
    List<PhaseSpec> phases = new ArrayList<>();
    Map<String, Integer> jobsInPhase = new HashMap<>();
    for (StepStatus step : steps) {
      Instant first =
          Instant.parse(step.startedAt()).plusSeconds(59).truncatedTo(ChronoUnit.MINUTES);
      Instant end = Instant.parse(step.endedAt()).truncatedTo(ChronoUnit.MINUTES);
      if (first.isBefore(end)
          && rows.stream().anyMatch(r -> !r.start().isBefore(first) && r.start().isBefore(end))) {
        phases.add(
            new PhaseSpec(
                step.stage(),
                LocalTime.ofInstant(first, ZoneOffset.UTC),
                LocalTime.ofInstant(end.minusSeconds(60), ZoneOffset.UTC)));
        jobsInPhase.put(step.stage(), step.jobs().size());
      }
    }
    List<Verdict> verdicts = List.of();
    if (!phases.isEmpty()) {
      Diagnoser.Topology t =
          new Diagnoser.Topology(
                  topology.tables(),
                  topology.workersPerJob(),
                  topology.jobs(),
                  topology.pooled(),
                  peakConnections,
                  jobsInPhase)
              .withJobsInSource("the scenario's stage plan");
      verdicts = TimelineAnalysis.of(rows, Map.of(), 0, phases, t).diagnosis();
    }
    RunJson.write(dir.root().resolve(RunFiles.GCP_DIAGNOSIS), verdicts);
  }

  /**
   * A minute counts for a stage when it lies wholly inside it: a partial minute mixes two stages.
   */
  private static boolean inside(Instant minute, StepStatus step) {
    return !minute.isBefore(Instant.parse(step.startedAt()))
        && !minute.plusSeconds(60).isAfter(Instant.parse(step.endedAt()));
  }

  private void timelineRecords(
      StepStatus step, List<TimelineRow> rows, List<ResultRecord> records) {
    Timeline minutes = Timeline.of(rows, 60, Timeline.dataTables());
    List<Double> rps = new ArrayList<>();
    List<Double> mbps = new ArrayList<>();
    for (Bucket b : minutes.buckets()) {
      if (inside(b.start(), step)) {
        rps.add(b.rowsPerSecond());
        mbps.add(b.mbPerSecond());
      }
    }
    Estimate r = Estimate.of(rps);
    add(records, step, ResultRecord.ALL_JOBS, "bigquery_rows_per_second", r.mean(), "rows/s");
    add(
        records,
        step,
        ResultRecord.ALL_JOBS,
        "bigquery_rows_per_second_ci95_low",
        r.ci95Low(),
        "rows/s");
    add(
        records,
        step,
        ResultRecord.ALL_JOBS,
        "bigquery_rows_per_second_ci95_high",
        r.ci95High(),
        "rows/s");
    add(
        records,
        step,
        ResultRecord.ALL_JOBS,
        "bigquery_mb_per_second",
        Estimate.of(mbps).mean(),
        "MB/s");
    add(records, step, ResultRecord.ALL_JOBS, "bigquery_minutes", rps.size(), "minutes");
  }

  private void add(
      List<ResultRecord> records,
      StepStatus step,
      String job,
      String metric,
      double value,
      String unit) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return;
    }
    records.add(
        new ResultRecord(
            run.runId(),
            run.scenario(),
            run.target(),
            step.iteration(),
            step.stage(),
            job,
            metric,
            value,
            unit,
            new LinkedHashMap<>(Map.of(ResultLabel.SCALE.key(), Double.toString(run.scale()))),
            step.endedAt()));
  }

  private void writeTimeline(List<TimelineRow> rows) throws IOException {
    try (Writer out =
        Files.newBufferedWriter(
            dir.root().resolve(RunFiles.GCP_TIMELINE), StandardCharsets.UTF_8)) {
      out.write(
          String.join(
                  ",",
                  TimelineColumns.START_TIMESTAMP,
                  TimelineColumns.PROJECT_ID,
                  TimelineColumns.DATASET_ID,
                  TimelineColumns.TABLE_ID,
                  TimelineColumns.STREAM_TYPE,
                  TimelineColumns.ERROR_CODE,
                  TimelineColumns.TOTAL_REQUESTS,
                  TimelineColumns.TOTAL_ROWS,
                  TimelineColumns.TOTAL_INPUT_BYTES)
              + "\n");
      for (TimelineRow r : rows) {
        out.write(
            String.format(
                Locale.ROOT,
                "%s,%s,%s,%s,%s,%s,%d,%d,%d%n",
                BQ_TIME.format(r.start()),
                r.projectId(),
                r.datasetId(),
                r.tableId(),
                r.streamType(),
                r.errorCode(),
                r.totalRequests(),
                r.totalRows(),
                r.totalInputBytes()));
      }
    }
  }
}
