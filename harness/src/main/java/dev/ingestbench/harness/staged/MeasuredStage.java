package dev.ingestbench.harness.staged;

import dev.ingestbench.analysis.scenario.ResultRecords;
import dev.ingestbench.analysis.scenario.StageMeasures;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.contracts.StepStatus;
import dev.ingestbench.scenario.Durations;
import dev.ingestbench.scenario.PlannedStage;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A finished stage's measures, the same for every target: each running job's and all jobs', over
 * the window the report measures a stage in (from the second after it started), so results.jsonl
 * and report.md give the same figures.
 */
public record MeasuredStage(
    PlannedStage stage,
    Instant started,
    Instant ended,
    Map<String, StageMeasures> jobs,
    StageMeasures all) {

  public static MeasuredStage of(
      List<ScenarioSample> samples, PlannedStage st, Instant started, Instant ended) {
    long from = started.getEpochSecond() + 1;
    long to = ended.getEpochSecond() + 1;
    Map<String, StageMeasures> jobs = new LinkedHashMap<>();
    for (String job : st.running()) {
      jobs.put(job, StageMeasures.of(samples, st.name(), job, from, to));
    }
    return new MeasuredStage(
        st, started, ended, jobs, StageMeasures.of(samples, st.name(), null, from, to));
  }

  /**
   * The stage's result records: each job's measures with its labels, then all jobs' with the run's.
   */
  public ResultRecords records(
      ScenarioRun run,
      int vcpus,
      Map<String, Map<String, String>> labels,
      Map<String, String> runLabels) {
    ResultRecords records =
        new ResultRecords(
            new ResultRecords.Step(
                run.runId(), run.scenario(), run.target(), 1, stage.name(), ended.toString()));
    jobs.forEach((job, m) -> records.stage(job, m, vcpus, labels.get(job)));
    records.stage(ResultRecord.ALL_JOBS, all, vcpus, runLabels);
    return records;
  }

  public StepStatus status(boolean met, int segment) {
    return new StepStatus(
        stage.marker(),
        stage.name(),
        1,
        stage.running(),
        stage.start(),
        stage.stop(),
        stage.condition(),
        met,
        started.toString(),
        ended.toString(),
        segment);
  }

  /** "Stage a-and-b done after 40s: a 9,998 rows/s (...), b ...; all jobs 15,000 rows/s". */
  public String summary() {
    return String.format(
        Locale.ROOT,
        "Stage %s done after %s: %s; all jobs %,.0f rows/s",
        stage.name(),
        Durations.show(Duration.between(started, ended)),
        jobs.entrySet().stream()
            .map(e -> RunLog.measured(e.getKey(), e.getValue()))
            .collect(Collectors.joining(", ")),
        all.rowsPerSecond().mean());
  }
}
