package dev.ingestbench.harness.staged;

import dev.ingestbench.scenario.PlannedStage;
import java.io.PrintStream;

/**
 * Runs a scenario's {@code find_max_rate} stages: each a round of its own ({@code round
 * --find-max-rate} with one job's settings, its own servers), given to a local target by whoever
 * can build rounds (the scenario runner).
 */
public interface MaxRateStages extends StageExecutor {
  /** Runs the stage's search; its status, results and findings as a load test's are. */
  @Override
  LoadTestStage.Outcome run(PlannedStage st, int segmentNo) throws Exception;

  /** --dry-run: the round it would run, as a command line. */
  void describe(PlannedStage st, PrintStream out);
}
