package dev.ingestbench.harness.round;

import dev.ingestbench.analysis.report.MultiJobResults;
import dev.ingestbench.analysis.report.RoundReport;
import dev.ingestbench.analysis.report.UnfinishedStreams;
import dev.ingestbench.analysis.scenario.ResultRecords;
import dev.ingestbench.contracts.CsvChecksums;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.MachineCalibration;
import dev.ingestbench.contracts.MachineInfo;
import dev.ingestbench.contracts.MaxRateResult;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.harness.process.CalibrationRun;
import dev.ingestbench.harness.process.ChildJvm;
import dev.ingestbench.harness.process.ProcessLauncher;
import dev.ingestbench.harness.spec.OutDirectory;
import dev.ingestbench.harness.staged.LocalJobs;
import dev.ingestbench.harness.staged.LocalSegments;
import dev.ingestbench.harness.staged.RunDirectory;
import dev.ingestbench.harness.staged.RunLog;
import dev.ingestbench.harness.staged.StageTarget;
import dev.ingestbench.harness.staged.StagedDriver;
import dev.ingestbench.harness.staged.Ticker;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.verification.Finding;
import dev.ingestbench.verification.Verdict;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Carries out a local round: the one-stage case of the {@link StagedDriver}. The stage starts every
 * job and lasts until each has accounted for every message ({@code until: drained}, at most
 * --timeout); {@link #target} starts the round's processes, the driver verifies every job by the
 * one verification policy and gives the exit code, and the round's own analysis writes its report.
 * Every flag of every process is validated before anything starts ({@link RoundPlan}); every
 * process it starts is stopped before it returns, whatever happens.
 */
public final class RoundRunner {
  private final RoundSpec spec;
  private final RoundPlan plan;

  /** How fast the machine was as the round (or the scenario that runs it) began; null: unknown. */
  private MachineCalibration calibration;

  /** Whether {@link #calibration} was measured for this round itself (then it says so). */
  private boolean measuredHere;

  /** The verification's findings once {@link #run} has verified the jobs; null before. */
  private Verdict verdict;

  /**
   * Set by a signal: the children are being stopped, so what the round would say of them is noise.
   */
  private static volatile boolean signalled;

  /**
   * Validates every process's flags; throws {@link IllegalArgumentException} naming the problem.
   */
  public RoundRunner(RoundSpec spec) {
    this.spec = spec;
    this.plan = new RoundPlan(spec);
  }

  /** Times the machine before the round starts ({@code ingestbench round}). */
  public RoundRunner measuringTheMachine() {
    this.calibration = CalibrationRun.measure();
    this.measuredHere = true;
    return this;
  }

  /**
   * Records {@code calibration}, taken by the scenario this round is an iteration or a stage of
   * (null when it took none): timed again beside its other iterations, the machine would be slower
   * by their load, not by the day.
   */
  public RoundRunner withCalibration(MachineCalibration calibration) {
    this.calibration = calibration;
    return this;
  }

  public int run() throws Exception {
    // Ctrl-C or SIGTERM: every child's own hook stops it; this one says so and tidies up after
    // them.
    Thread onSignal = new Thread(this::stoppedBySignal, "round-stopped-by-signal");
    Runtime.getRuntime().addShutdownHook(onSignal);
    try {
      return runRound();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(onSignal);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running
      }
    }
  }

  private int runRound() throws Exception {
    Path out = spec.out();
    Files.createDirectories(out);
    RoundFiles.clearEarlierRound(out, spec.force());
    RoundFiles.clearEarlierLogs(out);
    RunJson.write(out.resolve(RunFiles.ROUND), RoundJson.of(spec, plan, calibration));
    if (spec.searches()) {
      say(
          "Round starting: the highest rate %d job(s) sustain, %s messages of %d bytes, %s, %s, %d table(s), latency SLO %,d ms -> %s",
          spec.jobs(),
          plan.consumer.messageFormat().flag(),
          spec.messageSize(),
          plan.consumer.writeMethod().flag(),
          plan.consumer.rowFormat().flag(),
          spec.job().destinationTables(),
          spec.findMaxRate().latencySlo().toMillis(),
          out);
    } else {
      say(
          "Round starting: %,d %s messages from %s (%,d backlog%s%s), %s, %s, %d table(s), %d job(s) -> %s",
          spec.messages(),
          plan.consumer.messageFormat().flag(),
          spec.source().flag(),
          plan.backlogMessages(),
          spec.feed() ? " fed in tranches" : "",
          spec.liveMessages() == 0
              ? ", no live messages"
              : String.format(
                  Locale.ROOT,
                  ", then %,d live at %,.0f msg/s",
                  spec.liveMessages(),
                  spec.liveRate()),
          plan.consumer.writeMethod().flag(),
          plan.consumer.rowFormat().flag(),
          spec.job().destinationTables(),
          spec.jobs(),
          out);
    }
    if (calibration != null && measuredHere) {
      say("This machine today: %s; runs of other days compare by it", calibration.describe());
    }
    RunDirectory dir = new RunDirectory(out);
    Files.createDirectories(out.resolve(RunFiles.STATUS_DIRECTORY));
    ScenarioPlan stages = plan.stages();
    LocalSegments target = target(spec, plan, ProcessLauncher.SYSTEM);
    ScenarioRun run = scenarioRun();
    StagedDriver driver =
        new StagedDriver(stages, dir, run, target, Duration.ZERO, Ticker.system(), labels())
            .speakingAs("round");
    int exit = runOneStage(driver, target);
    if (spec.killsConsumers()) {
      say(
          "Consumers killed (SIGKILL) and restored from a checkpoint: %d time(s) in all",
          target.kills());
    }
    say("Analysing %s", out);
    List<RoundSummary> jobSummaries = new ArrayList<>();
    if (spec.jobs() > 1) {
      for (int j = 1; j <= spec.jobs(); j++) {
        jobSummaries.add(RoundReport.write(plan.jobDirectory(j)));
      }
      MultiJobResults.combine(out, jobDirs(plan::jobDirectory));
    }
    // Every process has stopped: no CSV changes after this, and the analysis checks each against
    // it.
    RunJson.write(out.resolve(RunFiles.CSV_CHECKSUMS), CsvChecksums.of(out, plan.runId));
    RoundSummary summary = RoundReport.write(out);
    recordCost(dir, run, summary);
    RoundSummaryLines.print(summary, out, spec.feed(), spec.searches(), RoundRunner::say);
    List<ResultRecord> results = jobSummaries.isEmpty() ? List.of() : dir.readResults();
    for (int j = 1; j <= jobSummaries.size(); j++) {
      RoundSummaryLines.printJob(
          j,
          jobSummaries.get(j - 1),
          ResultRecords.left(results, RoundPlan.jobName(j)),
          plan.jobDirectory(j),
          RoundRunner::say);
    }
    verdict = driver.verdict();
    explain(driver.verdict(), out);
    if (spec.searches()) {
      exit = Math.max(exit, searchExit(out));
    }
    return exit;
  }

  /**
   * A search that sustained no rate has no answer: exit 1, as a run that failed its verification
   * (the report's section says the bracket it reached and why each probe failed).
   */
  private static int searchExit(Path out) throws IOException {
    MaxRateResult r = RunJson.read(out.resolve(RunFiles.MAX_RATE_SEARCH), MaxRateResult.class);
    if (r.maxSustainableRowsPerSecond() == null) {
      say(
          "No rate was sustained (the bracket reached: 0 to %,.0f msg/s): raise --latency-slo or"
              + " --max-probes, or see the probes in the report",
          r.bracketNotSustained() == null ? 0 : r.bracketNotSustained());
      return ExitCodes.INCOMPLETE;
    }
    say(
        "Highest sustained rate: %,.0f rows/s per job (95%% CI %,.0f – %,.0f over %d s; %,.0f per"
            + " vCPU), limited by %s",
        r.maxSustainableRowsPerSecond(),
        r.sustainedRowsPerSecond().ci95Low(),
        r.sustainedRowsPerSecond().ci95High(),
        r.sustainedRowsPerSecond().samples(),
        r.rowsPerSecondPerVcpu(),
        r.limitedBy());
    return ExitCodes.OK;
  }

  /** What the verification found, once {@link #run} returned; null if it never got that far. */
  public Verdict verdict() {
    return verdict;
  }

  /**
   * The round's cost as result records beside its verification's (every job together, in its one
   * stage): what summary.json's {@code cost} says, for a reader of results.jsonl.
   */
  private void recordCost(RunDirectory dir, ScenarioRun run, RoundSummary summary)
      throws IOException {
    if (summary.cost() == null) {
      return;
    }
    List<ResultRecord> records =
        new ResultRecords(
                new ResultRecords.Step(
                    run.runId(),
                    run.scenario(),
                    run.target(),
                    1,
                    OneStage.STAGE,
                    Instant.now().toString()))
            .cost(ResultRecord.ALL_JOBS, summary.cost(), labels().get(RoundPlan.jobName(1)))
            .records();
    dir.replaceResults(r -> ResultRecords.COST_METRICS.contains(r.metric()), records);
  }

  /**
   * The round's identity for the driver's result records: its run id, where its jobs ran (as a
   * scenario's target names it: {@code local}, {@code flink}), this machine.
   */
  private ScenarioRun scenarioRun() {
    return new ScenarioRun(
        plan.runId,
        "round",
        spec.runner().targetName(),
        1,
        null,
        Instant.now().toString(),
        String.valueOf(MachineInfo.describe().get("cpu_model")),
        Runtime.getRuntime().availableProcessors(),
        Map.of());
  }

  /** Every job's settings as the consumer computes them: the labels of its result records. */
  public Map<String, Map<String, String>> labels() {
    return plan.labels();
  }

  /** What a person needs next to the verification's findings: why, and where to look. */
  private void explain(Verdict verdict, Path out) throws IOException {
    List<Finding.Kind> kinds = verdict.findings().stream().map(Finding::kind).toList();
    if (kinds.contains(Finding.Kind.DUPLICATES)) {
      say(
          "After a restore from a checkpoint (a worker failure, a killed consumer) the rows the job had appended and"
              + " flushed after that checkpoint are written again: on Flink, Beam's flush does not wait for the"
              + " checkpoint holding the append. See docs/bigquery-emulator.md, 'A worker failure'");
    }
    // A loss's unfinished streams are said by the verification itself.
    if (kinds.contains(Finding.Kind.UNVERIFIED) && !kinds.contains(Finding.Kind.LOST)) {
      String unfinished = unfinishedStreams(out);
      if (unfinished != null) {
        say("%s", unfinished);
      }
    }
    if (kinds.contains(Finding.Kind.DEAD_LETTERS)) {
      say("The report's 'Dead letters' section has each dead letter's stage and reason");
    }
  }

  /** The local BigQuery's sentence about rows appended and never made visible, or null. */
  private static String unfinishedStreams(Path out) throws IOException {
    Path status = out.resolve(RunFiles.BIGQUERY_EMULATOR);
    return Files.exists(status)
        ? UnfinishedStreams.sentence(RunJson.read(status, EmulatorStatus.class))
        : null;
  }

  /**
   * Ctrl-C or SIGTERM: waits while the children's own hooks stop them (each writes what it has; a
   * consumer writes checkpoints until it is gone), then removes {@code --kill-consumer-at}'s
   * checkpoints and says what is left in --out.
   */
  private void stoppedBySignal() {
    signalled = true;
    System.out.println(
        "[round] Stopped by a signal: stopping the round's processes (each writes what it has)...");
    ChildJvm.awaitAllStopped();
    Path checkpoints = spec.out().resolve("checkpoints");
    try {
      OutDirectory.deleteTree(checkpoints);
    } catch (IOException | RuntimeException e) {
      System.err.println("Could not remove " + checkpoints + ": " + e);
    }
    boolean results;
    try (var files =
        Files.find(
            spec.out(), 2, (p, a) -> p.getFileName().toString().equals(RunFiles.CONSUMER_RESULT))) {
      results = files.findAny().isPresent();
    } catch (IOException | RuntimeException e) {
      results = false;
    }
    System.out.println(
        "[round] Stopped: nothing was verified; the logs and partial files are in "
            + spec.out()
            + (results
                ? ""
                : spec.killsConsumers()
                    ? " (no consumer_result.json: a killed consumer writes none, and the last one was stopped before it"
                        + " wrote its own)"
                    : spec.searches()
                        ? " (no consumer_result.json: a searching round's consumer reads until the"
                            + " search ends, and was stopped before it wrote its results; the probes"
                            + " so far were printed above)"
                        : " (no consumer_result.json: the consumer was stopped before it wrote its"
                            + " results; its log shows how far it got)"));
  }

  /** One directory per job (1-based), as {@code dirOf} names it. */
  private List<Path> jobDirs(IntFunction<Path> dirOf) {
    List<Path> dirs = new ArrayList<>();
    for (int j = 1; j <= spec.jobs(); j++) {
      dirs.add(dirOf.apply(j));
    }
    return dirs;
  }

  /**
   * Runs the round's one stage; a server that died (while the round started, or while it ran) is
   * the failure it reports, naming the server, whatever failed because of it.
   */
  static int runOneStage(StagedDriver driver, LocalSegments target) throws Exception {
    int exit;
    try {
      exit = driver.run();
    } catch (IOException | RuntimeException e) {
      // A process that failed because a server died: the death is the reason to report.
      if (target.death().isPresent()) {
        throw new IOException(target.death().get(), e);
      }
      throw e;
    }
    if (target.death().isPresent()) {
      throw new IOException(target.death().get());
    }
    return exit;
  }

  /**
   * Where a round's jobs run: the local target, its one segment shaped as a round ({@link
   * RoundShape}): its servers' files at the top of {@code --out}, where a round has always kept
   * them, the backlog before any job starts, one consumer JVM per job, the live messages once every
   * job has drained the backlog, the stage's faults, or the max-rate search. A round's consumers
   * stop by themselves once they have accounted for every message (or at their {@code --timeout}),
   * and it measures nothing while they run: its figures are its own analysis of the per-second
   * timeline afterwards (a second, differently windowed rate beside them would only disagree).
   *
   * @param launcher starts the publisher and the consumers (a test's scripted processes)
   */
  static LocalSegments target(RoundSpec spec, RoundPlan plan, ProcessLauncher launcher) {
    return new LocalSegments(
        plan.stages(),
        new RoundShape(spec, plan),
        new LocalJobs(plan, spec.heap(), spec.runner(), launcher),
        spec.runner(),
        spec.heap(),
        launcher,
        StageTarget.Measures.NOTHING,
        segment -> {
          Files.deleteIfExists(
              segment); // the driver's segment directory, which a round keeps none of
          return spec.out();
        });
  }

  private static void say(String format, Object... args) {
    if (!signalled) {
      RunLog.say("round", format, args);
    }
  }
}
