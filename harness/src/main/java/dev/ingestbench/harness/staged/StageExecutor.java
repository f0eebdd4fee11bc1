package dev.ingestbench.harness.staged;

import dev.ingestbench.scenario.PlannedStage;
import java.io.PrintStream;

/**
 * Runs one kind of stage that starts none of the scenario's jobs (a load test of the source, a
 * max-rate search), beside whatever jobs run. The driver hands each such stage to the executor of
 * its kind, and --dry-run asks the same executor what it would do; a target that has none for a
 * kind cannot run it (the runner refuses such a scenario before it starts).
 */
public interface StageExecutor {
  /** Runs the stage; its status, result records and findings. */
  LoadTestStage.Outcome run(PlannedStage st, int segmentNo) throws Exception;

  /** --dry-run: what {@link #run} would do, with the command line of what it would run. */
  void describe(PlannedStage st, PrintStream out);
}
