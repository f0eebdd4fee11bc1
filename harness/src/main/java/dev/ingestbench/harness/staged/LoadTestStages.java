package dev.ingestbench.harness.staged;

import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.harness.spec.JobLabels;
import dev.ingestbench.scenario.PlannedStage;
import dev.ingestbench.scenario.ScenarioPlan;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * A local run's {@code pubsub_load} stages: each against the open segment's Pub/Sub emulator, on a
 * topic of its own ({@link LoadTestStage}), beside the jobs running.
 */
final class LoadTestStages implements StageExecutor {
  private final ScenarioPlan plan;
  private final ScenarioRun run;
  private final Path runDir;

  /** The open segment's source HOST:PORT. */
  private final Supplier<String> sourceHost;

  LoadTestStages(ScenarioPlan plan, ScenarioRun run, Path runDir, Supplier<String> sourceHost) {
    this.plan = plan;
    this.run = run;
    this.runDir = runDir;
    this.sourceHost = sourceHost;
  }

  @Override
  public LoadTestStage.Outcome run(PlannedStage st, int segmentNo) throws Exception {
    return LoadTestStage.run(
        st,
        run,
        sourceHost.get(),
        plan.scenario().source().topic(),
        runDir,
        segmentNo,
        JobLabels.run(plan.scale(), run.machine()));
  }

  @Override
  public void describe(PlannedStage st, PrintStream out) {
    out.println(
        "    ingestbench pubsub-load "
            + String.join(
                " ",
                LoadTestStage.args(
                    st,
                    "PUBSUB_HOST",
                    plan.scenario().source().topic(),
                    LoadTestStage.directory(runDir, st)))
            + " (with "
            + st.running()
            + " running); then write status/"
            + st.marker()
            + ".json");
  }
}
