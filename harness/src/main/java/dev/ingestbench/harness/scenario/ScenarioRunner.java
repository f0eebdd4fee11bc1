package dev.ingestbench.harness.scenario;

import com.google.cloud.bigquery.TableId;
import dev.ingestbench.analysis.scenario.ResultsTable;
import dev.ingestbench.analysis.scenario.ScenarioReport;
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
import dev.ingestbench.harness.staged.RunDirectory;
import dev.ingestbench.harness.staged.RunLog;
import dev.ingestbench.harness.staged.ScenarioSource;
import dev.ingestbench.harness.unordered.UnorderedLocalRun;
import dev.ingestbench.scenario.Scenario;
import dev.ingestbench.scenario.ScenarioException;
import dev.ingestbench.scenario.ScenarioFile;
import dev.ingestbench.scenario.ScenarioPlan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
    Scenario scenario;
    try {
      scenario = ScenarioFile.load(flags.file());
    } catch (ScenarioException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    RemoteTarget remote = flags.remote();
    if (remote != null) {
      remote.refuseUnsupported(flags.file(), scenario);
    }
    TableId resultsTable =
        flags.resultsTable() == null ? null : ResultsTable.parse(flags.resultsTable());
    RunDirectory dir =
        new RunDirectory(flags.out() != null ? flags.out() : Path.of("runs", scenario.name()));
    String sha = sha256(flags.file());
    Optional<ScenarioRun> existing = flags.restart() ? Optional.empty() : dir.existingRun();
    if (existing.isPresent()) {
      requireSameRun(existing.get(), sha, dir);
    }
    Map<String, Object> machine = MachineInfo.describe();
    ScenarioRun run =
        existing.orElseGet(
            () ->
                new ScenarioRun(
                    scenario.name() + "-" + RUN_ID_TIME.format(Instant.now()),
                    scenario.name(),
                    flags.target(),
                    flags.scale(),
                    sha,
                    Instant.now().toString(),
                    remote != null ? remote.machine() : String.valueOf(machine.get("cpu_model")),
                    remote != null ? 0 : Runtime.getRuntime().availableProcessors(),
                    null));
    ScenarioPlan plan = ScenarioPlan.of(scenario, flags.scale(), run.runId().hashCode());
    RunPlanCheck.check(flags, plan, remote);
    Map<String, String> scaled = new LinkedHashMap<>(plan.scaled());
    if (remote == null && plan.fedLocally()) {
      scaled.put("publish.backlog (local)", ScenarioSource.of(plan).feedNote());
    }
    run =
        new ScenarioRun(
            run.runId(),
            run.scenario(),
            run.target(),
            run.scale(),
            run.scenarioSha256(),
            run.startedAt(),
            run.machine(),
            run.vcpus(),
            scaled,
            // A local run times the machine when it first starts; a resumed one keeps that time.
            remote == null && !flags.dryRun() && existing.isEmpty()
                ? CalibrationRun.measure()
                : run.machineCalibration());
    // Building the runner checks every process's flags: a bad scenario fails here, before anything
    // starts.
    Duration warmUpMax =
        warmUpMax(remote != null ? remote.defaultWarmUpMax() : LocalTarget.DEFAULT_WARM_UP_MAX);
    RemoteTarget.Run onRemote = remote != null ? remote.prepare(plan, dir, run, warmUpMax) : null;
    LocalTarget staged =
        remote == null && plan.isStaged()
            ? new LocalTarget(plan, dir, run, flags.heap(), warmUpMax, flags.runner())
            : null;
    if (staged != null) {
      staged.withMaxRateStages(
          new MaxRateStage(plan, dir.root(), run, flags.heap(), staged.resultLabels()));
    }
    UnorderedLocalRun unordered =
        remote == null && !plan.isStaged()
            ? new UnorderedLocalRun(plan, dir, run, flags.heap(), flags.runner())
            : null;
    if (flags.dryRun()) {
      if (!scaled.isEmpty()) {
        System.out.println("Scaled by " + flags.scale() + ": " + scaled);
      }
      if (onRemote != null) {
        onRemote.describe(System.out);
        describeLabels(onRemote.resultLabels());
      } else if (staged != null) {
        staged.describe(System.out);
        describeLabels(staged.resultLabels());
      } else {
        unordered.describe(System.out);
      }
      if (resultsTable != null) {
        System.out.println(
            "  append results.jsonl to BigQuery table "
                + flags.resultsTable()
                + " (created when missing)");
      }
      return 0;
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
    // Ctrl-C or SIGTERM: every child's own hook stops it; this one says so, and how to go on.
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
    int exit;
    try {
      exit = onRemote != null ? onRemote.run() : staged != null ? staged.run() : unordered.run();
    } catch (Exception e) {
      if (signalled.get()) {
        return ExitCodes
            .INCOMPLETE; // a process stopped under it: the lines above said what happened
      }
      throw e;
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(onSignal);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running
      }
    }
    Path report = ScenarioReport.write(dir.root());
    RunLog.say("Report: %s; results: %s", report, dir.root().resolve(RunFiles.RESULTS));
    if (resultsTable != null) {
      int appended =
          ResultsTable.forTable(resultsTable)
              .append(dir.readResults(), note -> RunLog.say("%s", note));
      RunLog.say("Appended %,d results to %s", appended, flags.resultsTable());
    }
    return exit;
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

  private static String sha256(Path file) throws IOException {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
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

  /** --dry-run: what each job's result records will be labelled with, defaults included. */
  private static void describeLabels(Map<String, Map<String, String>> labels) {
    System.out.println("  each job's results are labelled with its settings as it runs:");
    labels.forEach((job, l) -> System.out.println("    " + job + ": " + l));
  }
}
