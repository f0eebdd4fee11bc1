package dev.ingestbench.harness.scenario;

import com.google.cloud.bigquery.TableId;
import dev.ingestbench.analysis.scenario.ResultsTable;
import dev.ingestbench.analysis.scenario.ScenarioReport;
import dev.ingestbench.contracts.CsvChecksums;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.MachineInfo;
import dev.ingestbench.contracts.ResultLabel;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.harness.flink.PipelineRunner;
import dev.ingestbench.harness.process.CalibrationRun;
import dev.ingestbench.harness.process.ChildJvm;
import dev.ingestbench.harness.spec.FlinkClusterSpec;
import dev.ingestbench.harness.staged.LocalTarget;
import dev.ingestbench.harness.staged.PlannedRun;
import dev.ingestbench.harness.staged.RunDirectory;
import dev.ingestbench.harness.staged.RunLog;
import dev.ingestbench.harness.staged.ScenarioSource;
import dev.ingestbench.harness.unordered.UnorderedLocalRun;
import dev.ingestbench.scenario.Scenario;
import dev.ingestbench.scenario.ScenarioException;
import dev.ingestbench.scenario.ScenarioFile;
import dev.ingestbench.scenario.ScenarioPlan;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code ingestbench run}: loads and checks the scenario, matches it against what the run directory
 * already holds (resume) or starts it afresh, runs what is left on the target, and writes the
 * report.
 */
public final class ScenarioRunner {
  private static final DateTimeFormatter RUN_ID_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

  private final RunSpec flags;

  public ScenarioRunner(RunSpec flags) {
    this.flags = flags;
  }

  public int run() throws Exception {
    Scenario scenario = load();
    RemoteTarget remote = flags.remote();
    if (remote != null) {
      remote.refuseUnsupported(flags.file(), scenario);
    }
    TableId resultsTable =
        flags.resultsTable() == null ? null : ResultsTable.parse(flags.resultsTable());
    RunDirectory dir =
        new RunDirectory(flags.out() != null ? flags.out() : Path.of("runs", scenario.name()));
    String sha = CsvChecksums.sha256(flags.file());
    Optional<ScenarioRun> existing = flags.restart() ? Optional.empty() : dir.existingRun();
    if (existing.isPresent()) {
      requireSameRun(existing.get(), sha, dir);
    }
    ScenarioRun begun = existing.orElseGet(() -> newRun(scenario, sha, remote));
    ScenarioPlan plan = ScenarioPlan.of(scenario, flags.scale(), begun.runId().hashCode());
    RunPlanCheck.check(flags, plan, remote);
    ScenarioRun run = scaledAndTimed(begun, plan, remote, existing.isEmpty());
    // Planning checks every process's flags: a bad scenario fails here, before anything starts.
    PlannedRun planned = plan(plan, dir, run, remote);
    if (flags.dryRun()) {
      describe(planned, run);
      return ExitCodes.OK;
    }
    if (resultsTable != null) {
      ResultsTable.requireCredentials();
    }
    if (remote != null) {
      remote.requireCredentials();
    }
    if (flags.restart()) {
      dir.clear();
    }
    if (existing.isEmpty()) {
      if (run.machineCalibration() != null) {
        RunLog.say(
            "This machine today: %s; runs of other days compare by it",
            run.machineCalibration().describe());
      }
      dir.start(run, flags.file());
    }
    RunLog.say("Scenario %s (%s) -> %s", scenario.name(), run.runId(), dir.root());
    OptionalInt exit = runUntilSignalled(planned, dir);
    if (exit.isEmpty()) {
      return ExitCodes.INCOMPLETE; // a process stopped under it: the lines above said what happened
    }
    Path report = ScenarioReport.write(dir.root());
    RunLog.say("Report: %s; results: %s", report, dir.root().resolve(RunFiles.RESULTS));
    if (resultsTable != null) {
      int appended =
          ResultsTable.forTable(resultsTable).append(dir.readResults(), RunLog.lines("run"));
      RunLog.say("Appended %,d results to %s", appended, flags.resultsTable());
    }
    return exit.getAsInt();
  }

  private Scenario load() throws IOException {
    try {
      return ScenarioFile.load(flags.file());
    } catch (ScenarioException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /** A run begun now: its id, the scenario, where and on what it runs. */
  private ScenarioRun newRun(Scenario scenario, String sha, RemoteTarget remote) {
    return new ScenarioRun(
        scenario.name() + "-" + RUN_ID_TIME.format(Instant.now()),
        scenario.name(),
        flags.target(),
        flags.scale(),
        sha,
        Instant.now().toString(),
        remote != null ? remote.machine() : String.valueOf(MachineInfo.describe().get("cpu_model")),
        remote != null ? 0 : Runtime.getRuntime().availableProcessors(),
        null);
  }

  /**
   * {@code run} with what {@code plan} scaled, and the machine's speed: a local run times the
   * machine when it first starts (not in a dry run); a resumed one keeps that time.
   */
  private ScenarioRun scaledAndTimed(
      ScenarioRun run, ScenarioPlan plan, RemoteTarget remote, boolean firstStart) {
    Map<String, String> scaled = new LinkedHashMap<>(plan.scaled());
    if (remote == null && plan.fedLocally()) {
      scaled.put("publish.backlog (local)", ScenarioSource.of(plan).feedNote());
    }
    return new ScenarioRun(
        run.runId(),
        run.scenario(),
        run.target(),
        run.scale(),
        run.scenarioSha256(),
        run.startedAt(),
        run.machine(),
        run.vcpus(),
        scaled,
        remote == null && !flags.dryRun() && firstStart
            ? CalibrationRun.measure()
            : run.machineCalibration());
  }

  /** The plan on its target: Dataflow, this machine's stages, or its unordered iterations. */
  private PlannedRun plan(ScenarioPlan plan, RunDirectory dir, ScenarioRun run, RemoteTarget remote)
      throws IOException {
    Duration warmUpMax =
        warmUpMax(remote != null ? remote.defaultWarmUpMax() : LocalTarget.DEFAULT_WARM_UP_MAX);
    if (remote != null) {
      return remote.prepare(plan, dir, run, warmUpMax);
    }
    if (!plan.isStaged()) {
      return new UnorderedLocalRun(plan, dir, run, flags.heap(), flags.runner());
    }
    LocalTarget local = new LocalTarget(plan, dir, run, flags.heap(), warmUpMax, flags.runner());
    return local.withMaxRateStages(
        new MaxRateStage(plan, dir.root(), run, flags.heap(), local.resultLabels()));
  }

  /** --dry-run: what was scaled, every step, each job's labels, where the results go. */
  private void describe(PlannedRun planned, ScenarioRun run) {
    if (run.scaled() != null && !run.scaled().isEmpty()) {
      System.out.println("Scaled by " + flags.scale() + ": " + run.scaled());
    }
    planned.describe(System.out);
    if (!planned.resultLabels().isEmpty()) {
      System.out.println("  each job's results are labelled with its settings as it runs:");
      planned.resultLabels().forEach((job, l) -> System.out.println("    " + job + ": " + l));
    }
    if (flags.resultsTable() != null) {
      System.out.println(
          "  append results.jsonl to BigQuery table "
              + flags.resultsTable()
              + " (created when missing)");
    }
  }

  /**
   * Runs {@code planned}; empty when a signal (Ctrl-C, SIGTERM) stopped it. Every child's own hook
   * stops it; this one says so, and how to go on.
   */
  private static OptionalInt runUntilSignalled(PlannedRun planned, RunDirectory dir)
      throws Exception {
    AtomicBoolean signalled = new AtomicBoolean();
    Thread onSignal =
        new Thread(
            () -> {
              signalled.set(true);
              RunLog.say(
                  "Stopped by a signal: stopping the run's processes (each writes what it has)...");
              ChildJvm.awaitAllStopped();
              RunLog.say(
                  "Stopped: the stage (or iteration) that was running is not verified; finished ones are kept in %s."
                      + " The same command resumes at the first unfinished one (--restart starts over)",
                  dir.root());
            },
            "run-stopped-by-signal");
    Runtime.getRuntime().addShutdownHook(onSignal);
    try {
      return OptionalInt.of(planned.run());
    } catch (Exception e) {
      if (signalled.get()) {
        return OptionalInt.empty();
      }
      throw e;
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(onSignal);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running
      }
    }
  }

  private void requireSameRun(ScenarioRun run, String sha, RunDirectory dir) throws IOException {
    String ranOn = runnerOf(dir);
    String differs =
        !run.scenarioSha256().equals(sha)
            ? "a different scenario file (" + run.scenario() + ")"
            : run.scale() != flags.scale()
                ? "--scale " + run.scale()
                : !run.target().equals(flags.target())
                    ? "--target " + run.target()
                    : ranOn != null && !ranOn.equals(flags.runner().beamRunner())
                        ? FlinkClusterSpec.RUNNER + " " + ranOn
                        : null;
    if (differs != null) {
      throw new IllegalArgumentException(
          dir.root()
              + " holds a run of "
              + differs
              + "; rerun that to resume it,"
              + " add --restart to start over there, or give another --out");
    }
  }

  /** {@code --warm-up-max}, or the target's default when it is not given. */
  private Duration warmUpMax(Duration targetDefault) {
    return flags.warmUpMax() == null ? targetDefault : flags.warmUpMax();
  }

  /**
   * The runner the run's jobs ran on, as their results are labelled (run.json has no runner: one
   * target runs either; results labelled before the runner was ran on embedded Flink); null before
   * any result, or on a target whose runner is its own.
   */
  private String runnerOf(RunDirectory dir) throws IOException {
    if (flags.remote() != null) {
      return null;
    }
    List<ResultRecord> results = dir.readResults();
    return results.isEmpty()
        ? null
        : ResultRecord.firstLabel(results, ResultLabel.RUNNER).orElse(PipelineRunner.FLINK_RUNNER);
  }
}
