package dev.ingestbench.harness.scenario;

import dev.ingestbench.analysis.scenario.ResultRecords;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.MaxRateResult;
import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.contracts.StepStatus;
import dev.ingestbench.harness.flink.PipelineRunner;
import dev.ingestbench.harness.round.RoundPlan;
import dev.ingestbench.harness.round.RoundRunner;
import dev.ingestbench.harness.round.RoundSpec;
import dev.ingestbench.harness.spec.MaxRateSpec;
import dev.ingestbench.harness.staged.LoadTestStage;
import dev.ingestbench.harness.staged.StageExecutor;
import dev.ingestbench.scenario.PlannedStage;
import dev.ingestbench.scenario.Scenario;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.verification.Finding;
import dev.ingestbench.verification.Verdict;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A scenario's {@code find_max_rate} stage: {@code round --find-max-rate} with the named job's
 * settings (and the scenario's message format, size and limits) in {@code max-rate-NN-STAGE/} of
 * the run directory, on servers of its own, beside whatever jobs earlier stages left running. Its
 * answer becomes the stage's results (the job's {@code max_sustainable_rows_per_second}, with
 * {@code limited_by} as a label); its verification's findings, and a search that sustained no rate,
 * fail the run as any stage's would.
 */
final class MaxRateStage implements StageExecutor {
  private final ScenarioPlan plan;
  private final Path runDir;
  private final ScenarioRun run;
  private final String heap;
  private final Map<String, Map<String, String>> labels;

  MaxRateStage(
      ScenarioPlan plan,
      Path runDir,
      ScenarioRun run,
      String heap,
      Map<String, Map<String, String>> labels) {
    this.plan = plan;
    this.runDir = runDir;
    this.run = run;
    this.heap = heap;
    this.labels = labels;
  }

  /** Every max-rate stage's round, planned (every flag of every process checked) before the run. */
  static void validate(ScenarioPlan plan, String heap) {
    for (PlannedStage st : plan.stages()) {
      if (st.isMaxRateSearch()) {
        try {
          new RoundPlan(spec(plan, st, Path.of("validate"), heap));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              "stages." + st.name() + "." + Scenario.Stage.FIND_MAX_RATE + ": " + e.getMessage(),
              e);
        }
      }
    }
  }

  static Path directory(Path runDir, PlannedStage st) {
    return runDir.resolve("max-rate-" + st.marker());
  }

  private static RoundSpec spec(ScenarioPlan plan, PlannedStage st, Path out, String heap) {
    return RoundSpec.forScenarioJob(
            plan,
            st.search().job(),
            out,
            heap,
            PipelineRunner.embeddedFlink(),
            MaxRateSpec.of(st.search().settings()))
        .validate();
  }

  @Override
  public void describe(PlannedStage st, PrintStream out) {
    out.println(
        "    ingestbench round "
            + String.join(" ", spec(plan, st, directory(runDir, st), heap).asRoundFlags())
            + " (job "
            + st.search().job()
            + "'s settings, servers of its own, with "
            + (st.running().isEmpty() ? "no job" : String.join(", ", st.running()))
            + " running); then write status/"
            + st.marker()
            + ".json");
  }

  /**
   * What fails the stage: the search round's own findings (a lost message, a duplicate under
   * exactly-once, a wrong row), said of this stage and job, and a search that sustained no rate.
   */
  static List<Finding> findings(
      String stage, String job, Verdict verdict, MaxRateResult r, Path report) {
    List<Finding> findings = new ArrayList<>();
    if (verdict != null) {
      for (Finding f : verdict.findings()) {
        findings.add(new Finding(stage, job, f.kind(), f.message()));
      }
    }
    if (r.maxSustainableRowsPerSecond() == null) {
      findings.add(
          new Finding(
              stage,
              job,
              Finding.Kind.STAGE_PURPOSE,
              String.format(
                  Locale.ROOT,
                  "the max-rate search sustained no rate in %d probes (the bracket reached: 0 to"
                      + " %s msg/s); see %s",
                  r.probes().size(),
                  r.bracketNotSustained() == null
                      ? "?"
                      : String.format(Locale.ROOT, "%,.0f", r.bracketNotSustained()),
                  report)));
    }
    return findings;
  }

  @Override
  public LoadTestStage.Outcome run(PlannedStage st, int segmentNo) throws Exception {
    Path out = directory(runDir, st);
    String job = st.search().job();
    Instant started = Instant.now();
    RoundRunner round =
        new RoundRunner(spec(plan, st, out, heap)).withCalibration(run.machineCalibration());
    int exit;
    try {
      exit = round.run();
    } catch (Exception e) {
      throw new IOException(
          "stage " + st.name() + ": the max-rate search failed: " + e.getMessage(), e);
    }
    Instant ended = Instant.now();
    Path result = out.resolve(RunFiles.MAX_RATE_SEARCH);
    if (exit == ExitCodes.FAILED || !Files.exists(result)) {
      throw new IOException(
          "stage " + st.name() + ": the max-rate search failed (exit " + exit + "); see " + out);
    }
    MaxRateResult r = RunJson.read(result, MaxRateResult.class);
    RoundSummary summary = RunJson.read(out.resolve(RunFiles.SUMMARY), RoundSummary.class);
    Map<String, String> jobLabels = labels.getOrDefault(job, Map.of());
    ResultRecords records =
        new ResultRecords(
            new ResultRecords.Step(
                run.runId(), run.scenario(), run.target(), 1, st.name(), ended.toString()));
    records.maxRate(job, r, jobLabels);
    records.verification(
        job,
        summary.published(),
        summary.distinctMessageIds() + summary.deadLettered(),
        summary.duplicates(),
        summary.sourceDuplicates(),
        summary.misroutedRows(),
        summary.deadLettered(),
        0L,
        summary.lost(),
        jobLabels);
    List<Finding> findings =
        findings(st.name(), job, round.verdict(), r, out.resolve(RunFiles.REPORT));
    StepStatus status =
        st.status(findings.isEmpty(), started.toString(), ended.toString(), segmentNo);
    return new LoadTestStage.Outcome(status, records.records(), out, findings);
  }
}
