package dev.ingestbench.harness.staged;

import java.io.PrintStream;
import java.util.Map;

/**
 * A scenario planned on its target, every process's flags checked: the stages on this machine, the
 * unordered iterations, or the jobs on Dataflow. {@code ingestbench run} describes it (--dry-run)
 * or runs it, whichever it is.
 */
public interface PlannedRun {
  /** {@code --dry-run}: every action, with the command of every process, and nothing started. */
  void describe(PrintStream out);

  /**
   * Every job's result labels, its settings as it runs and the run's scale and machine, as
   * --dry-run shows them; empty where the run labels each result as it writes it.
   */
  default Map<String, Map<String, String>> resultLabels() {
    return Map.of();
  }

  /** Runs what is left of the plan; returns the exit code. */
  int run() throws Exception;
}
