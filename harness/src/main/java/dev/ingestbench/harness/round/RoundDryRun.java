package dev.ingestbench.harness.round;

import dev.ingestbench.harness.staged.LocalDryRun;
import dev.ingestbench.harness.staged.StageExecutors;
import dev.ingestbench.harness.staged.StageTarget;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;

/**
 * {@code round --dry-run}: the round's one stage as {@link LocalDryRun} prints any local run, from
 * the same plan and shape the round runs ({@link RoundPlan}, {@link RoundShape}), then every job's
 * result labels; nothing is started and nothing written.
 */
public final class RoundDryRun {
  private final RoundSpec spec;
  private final RoundPlan plan;

  /** Validates every process's flags, as the round does; throws naming the problem. */
  public RoundDryRun(RoundSpec spec) {
    this.spec = spec;
    this.plan = new RoundPlan(spec);
  }

  public void print(PrintStream out) {
    new LocalDryRun(
            plan.stages(),
            new RoundShape(spec, plan),
            plan,
            StageExecutors.NONE, // a round's one stage starts its jobs
            StageTarget.Measures.NOTHING)
        .print(out, "a round", spec.out(), spec.out(), 0, Duration.ZERO);
    out.println("  each job's results are labelled with its settings as it runs:");
    for (Map.Entry<String, Map<String, String>> job : plan.labels().entrySet()) {
      out.println("    " + job.getKey() + ": " + job.getValue());
    }
  }
}
