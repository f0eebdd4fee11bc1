package dev.ingestbench.harness.staged;

import dev.ingestbench.scenario.PlannedStage;
import dev.ingestbench.scenario.Scenario;
import dev.ingestbench.scenario.StageKind;
import java.io.IOException;
import java.io.PrintStream;

/**
 * The executors of the stage kinds that start no job: {@code pubsub_load} stages and {@code
 * find_max_rate} stages. Either may be null where the target cannot run that kind.
 */
public record StageExecutors(StageExecutor loadTests, StageExecutor maxRateSearches) {
  /** A target that runs only stages of jobs. */
  public static final StageExecutors NONE = new StageExecutors(null, null);

  /** Runs {@code st} with the executor of its kind; throws naming the stage when there is none. */
  LoadTestStage.Outcome run(PlannedStage st, int segmentNo) throws Exception {
    StageExecutor executor = of(st);
    if (executor == null) {
      throw new IOException(
          "stage "
              + st.name()
              + ": a "
              + (st.kind() instanceof StageKind.MaxRateSearch
                  ? Scenario.Stage.FIND_MAX_RATE
                  : Scenario.Stage.PUBSUB_LOAD)
              + " stage cannot run on this target");
    }
    return executor.run(st, segmentNo);
  }

  /** --dry-run of {@code st}: its executor's account, or that this target has none. */
  void describe(PlannedStage st, PrintStream out) {
    StageExecutor executor = of(st);
    if (executor == null) {
      out.println(
          "    (no "
              + (st.kind() instanceof StageKind.MaxRateSearch ? "max-rate" : "load-test")
              + " stages on this target)");
    } else {
      executor.describe(st, out);
    }
  }

  private StageExecutor of(PlannedStage st) {
    if (st.kind() instanceof StageKind.MaxRateSearch) {
      return maxRateSearches;
    }
    if (st.kind() instanceof StageKind.LoadTest) {
      return loadTests;
    }
    throw new IllegalArgumentException("stage " + st.name() + " starts jobs: the driver runs it");
  }
}
