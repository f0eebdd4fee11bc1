package dev.ingestbench.harness.scenario;

import dev.ingestbench.contracts.StopMode;
import dev.ingestbench.contracts.job.WriteMethod;
import dev.ingestbench.harness.flink.PipelineRunner;
import dev.ingestbench.harness.spec.FlinkClusterSpec;
import dev.ingestbench.harness.spec.JobSettings;
import dev.ingestbench.harness.staged.LoadTestStage;
import dev.ingestbench.scenario.Durations;
import dev.ingestbench.scenario.PlannedStage;
import dev.ingestbench.scenario.Scenario;
import dev.ingestbench.scenario.ScenarioPlan;

/**
 * What a scenario file's own checks cannot know, checked once its plan is built for this run: what
 * --scale does to its stages (a kill or a live profile that would never come, live messages it
 * leaves none of), what the target can honour (a Flink cluster's slots, kills of a JVM that runs no
 * task, a TaskManager kill without a cluster of the run's own), and each stage kind's own checks.
 * Each refusal names the file, the key and the fix.
 */
final class RunPlanCheck {
  /** The fix where the runner cannot do what the file asks. */
  private static final String DEFAULT_RUNNER =
      FlinkClusterSpec.RUNNER + " " + PipelineRunner.FLINK_RUNNER + " (the default)";

  private RunPlanCheck() {}

  /** Throws {@link IllegalArgumentException} naming the first problem. */
  static void check(RunSpec flags, ScenarioPlan plan, RemoteTarget remote) {
    requireWithinScaledStages(flags, plan);
    requireRunnerCan(flags, plan);
    LoadTestStage.validate(plan);
    if (remote == null) {
      MaxRateStage.validate(plan, flags.heap());
    }
  }

  /** What --scale shortened: a kill, a crash, a savepoint or a live profile it left no room for. */
  private static void requireWithinScaledStages(RunSpec flags, ScenarioPlan plan) {
    for (PlannedStage st : plan.stages()) {
      // The file's check compares unscaled times; --scale shortens the stage, not the kill.
      requireWithinScaledStage(
          flags, st, Scenario.Stage.KILL_CONSUMER_AT, st.faults().killConsumerAt());
      requireWithinScaledStage(flags, st, Scenario.Stage.CRASH_EVERY, st.faults().crashEvery());
      requireWithinScaledStage(
          flags, st, Scenario.Stage.KILL_TASKMANAGER_AT, st.faults().killTaskManagerAt());
      requireWithinScaledStage(flags, st, Scenario.Stage.SAVEPOINT_AT, st.faults().savepointAt());
      if (st.liveProfile() != null && plan.liveMessages() == 0) {
        // The file has live messages (it was checked so), and --scale left none: a scaled
        // backlog-only run feeds its jobs instead.
        throw new IllegalArgumentException(
            key(flags, st, Scenario.Stage.LIVE_PROFILE)
                + " steps the rate of the live messages, and at --scale "
                + scale(flags)
                + " the run publishes none; give a larger --scale or remove the key");
      }
      if (st.liveProfile() != null
          && !st.longest().isZero()
          && st.liveProfile().seconds() > st.longest().getSeconds()) {
        throw new IllegalArgumentException(
            key(flags, st, Scenario.Stage.LIVE_PROFILE)
                + " "
                + st.liveProfile()
                + " lasts longer than the stage, which lasts at most "
                + Durations.show(st.longest())
                + " at --scale "
                + scale(flags)
                + ": its last steps would never come; give shorter steps or a larger --scale");
      }
    }
  }

  /**
   * What the jobs' runner (--runner, --target flink) cannot do: search, kill, restore or drain, run
   * as many jobs at once as the stages start.
   */
  private static void requireRunnerCan(RunSpec flags, ScenarioPlan plan) {
    PipelineRunner runner = flags.runner();
    if (!runner.equals(PipelineRunner.embeddedFlink())
        && plan.stages().stream().anyMatch(PlannedStage::isMaxRateSearch)) {
      throw new IllegalArgumentException(
          flags.file()
              + ": a find_max_rate stage searches with embedded Flink (its round measures its"
              + " consumer JVM's CPU); run it with "
              + (runner.consumerJvmRunsPipeline() ? DEFAULT_RUNNER : "--target local")
              + ", or move the search to a scenario of its own");
    }
    if (!runner.consumerJvmRunsPipeline() && plan.firstKillingStage().isPresent()) {
      PlannedStage st = plan.firstKillingStage().get();
      throw new IllegalArgumentException(
          key(flags, st, st.faults().key())
              + " kills an embedded Flink's JVM; on a Flink cluster the job runs in the"
              + " TaskManagers, which a kill of the submitting JVM leaves running; run it with"
              + " --target local");
    }
    if (!runner.restoresFlinkState()) {
      requireNeitherRestoredNorDrained(flags, plan, runner);
    }
    var taskManagerKill = plan.firstTaskManagerKillingStage();
    if (taskManagerKill.isPresent() && runner.taskManagerKillRefusal().isPresent()) {
      throw new IllegalArgumentException(
          key(flags, taskManagerKill.get(), Scenario.Stage.KILL_TASKMANAGER_AT)
              + " kills a TaskManager of the Flink cluster the run starts; "
              + runner.taskManagerKillRefusal().get());
    }
    if (plan.isStaged()) {
      for (PlannedStage st : plan.stages()) {
        runner.validate(st.running().size(), flags.file() + ": stages." + st.name());
      }
    } else {
      runner.validate(plan.concurrency(), flags.file() + ": unordered.concurrency");
    }
  }

  /**
   * On a runner that keeps no Flink state (the DirectRunner): no stage that restores its jobs (a
   * kill, a crash, a savepoint), and no exactly-once job, which every stop would cancel.
   */
  private static void requireNeitherRestoredNorDrained(
      RunSpec flags, ScenarioPlan plan, PipelineRunner runner) {
    for (PlannedStage st : plan.stages()) {
      String key =
          st.faults().killsConsumers()
              ? st.faults().key()
              : st.faults().savesAndRestores()
                  ? Scenario.Stage.SAVEPOINT_AT
                  : st.stopWith() == StopMode.SAVEPOINT ? Scenario.Stage.STOP_WITH : null;
      if (key != null) {
        throw new IllegalArgumentException(
            key(flags, st, key)
                + " restores its jobs from Flink's checkpoints or savepoints, which the "
                + runner.beamRunner()
                + " does not keep; run it with "
                + DEFAULT_RUNNER);
      }
    }
    for (PlannedStage st : plan.stages()) {
      for (String job : st.start()) {
        if (JobSettings.of(plan.jobs().get(job)).writeMethod() == WriteMethod.EXACTLY_ONCE) {
          throw new IllegalArgumentException(
              flags.file()
                  + ": jobs."
                  + job
                  + " writes exactly-once (write_method, exactly-once by default), and the "
                  + runner.beamRunner()
                  + " cannot drain a job: each stop (a stage's stop, the run's end) cancels it,"
                  + " losing what it appended and had not flushed, a loss of the runner, not of"
                  + " the pipeline; give it write_method: at-least-once, or run it with "
                  + DEFAULT_RUNNER);
        }
      }
    }
  }

  /** A stage's key as a refusal names it: {@code FILE: stages.NAME.KEY}. */
  private static String key(RunSpec flags, PlannedStage st, String key) {
    return flags.file() + ": stages." + st.name() + "." + key;
  }

  /** --scale as it is written: 0.00001, not 1.0E-5. */
  private static String scale(RunSpec flags) {
    return java.math.BigDecimal.valueOf(flags.scale()).stripTrailingZeros().toPlainString();
  }

  /** A kill time that --scale puts at or after its stage's end would never come: refused. */
  private static void requireWithinScaledStage(
      RunSpec flags, PlannedStage st, String key, java.time.Duration at) {
    if (at != null && !st.longest().isZero() && at.compareTo(st.longest()) >= 0) {
      throw new IllegalArgumentException(
          key(flags, st, key)
              + " "
              + Durations.show(at)
              + " comes after the stage, which lasts at most "
              + Durations.show(st.longest())
              + " at --scale "
              + scale(flags)
              + ": the kill would never come; give an earlier time or a larger --scale");
    }
  }
}
