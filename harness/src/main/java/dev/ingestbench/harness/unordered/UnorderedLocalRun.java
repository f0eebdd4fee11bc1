package dev.ingestbench.harness.unordered;

import dev.ingestbench.analysis.scenario.ResultRecords;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.contracts.StepStatus;
import dev.ingestbench.harness.flink.PipelineRunner;
import dev.ingestbench.harness.round.RoundPlan;
import dev.ingestbench.harness.round.RoundRunner;
import dev.ingestbench.harness.round.RoundSpec;
import dev.ingestbench.harness.staged.PlannedRun;
import dev.ingestbench.harness.staged.RunDirectory;
import dev.ingestbench.harness.staged.RunLog;
import dev.ingestbench.harness.staged.ScenarioConsumers;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.scenario.ScenarioPlan.PlannedIteration;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs an unordered scenario locally: every iteration of every configuration is one local round
 * ({@code ingestbench round} with the configuration's flags, in a directory of its own), in the
 * plan's shuffled order, {@code concurrency} at a time. A rerun skips the iterations with a marker.
 */
public final class UnorderedLocalRun implements PlannedRun {
  private final ScenarioPlan plan;
  private final RunDirectory dir;
  private final ScenarioRun run;
  private final String heap;
  private final PipelineRunner runner;
  private final Map<String, Map<String, String>> labels;

  /**
   * @param runner where each iteration's pipeline runs: embedded Flink, or a Flink cluster it is
   *     submitted to
   */
  public UnorderedLocalRun(
      ScenarioPlan plan, RunDirectory dir, ScenarioRun run, String heap, PipelineRunner runner) {
    this.plan = plan;
    this.dir = dir;
    this.run = run;
    this.heap = heap;
    this.runner = runner;
    this.labels =
        new ScenarioConsumers(plan, 600, runner)
            .resultLabels(plan.scenario().unordered().jobs(), run.machine());
    for (String job : plan.scenario().unordered().jobs()) {
      // Planning the round checks every process's flags now, before the first iteration starts.
      try {
        new RoundPlan(spec(new PlannedIteration(job, 1)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("jobs." + job + ": " + e.getMessage(), e);
      }
    }
  }

  /**
   * One iteration as a round, built from the plan: the same spec {@code ingestbench round} builds
   * from flags.
   */
  public RoundSpec spec(PlannedIteration it) {
    return RoundSpec.forScenarioJob(plan, it.job(), iterationDirectory(it), heap, runner, null)
        .validate();
  }

  private Path iterationDirectory(PlannedIteration it) {
    return dir.root().resolve("iterations").resolve(it.marker());
  }

  @Override
  public void describe(PrintStream out) {
    out.println(
        "Would run "
            + plan.scenario().name()
            + " locally into "
            + dir.root()
            + ", "
            + plan.concurrency()
            + " at a time, in this (shuffled) order:");
    for (PlannedIteration it : plan.iterations()) {
      out.println(
          "  "
              + (dir.isDone(it.marker()) ? "skip (finished) " : "")
              + it.marker()
              + ": ingestbench round "
              + String.join(" ", spec(it).asRoundFlags()));
    }
    out.println("  then write report.md and results.jsonl");
  }

  @Override
  public int run() throws Exception {
    List<PlannedIteration> todo =
        plan.iterations().stream().filter(it -> !dir.isDone(it.marker())).toList();
    int done = plan.iterations().size() - todo.size();
    if (todo.isEmpty()) {
      RunLog.say(
          "Every iteration is finished already (status/ in %s); the report is rewritten."
              + " --restart runs it again.",
          dir.root());
      return ExitCodes.OK;
    }
    if (done > 0) {
      RunLog.say(
          "Resuming: %d of %d iterations are finished and skipped", done, plan.iterations().size());
    }
    AtomicInteger worst = new AtomicInteger(ExitCodes.OK);
    AtomicInteger count = new AtomicInteger(done);
    ExecutorService pool = Executors.newFixedThreadPool(plan.concurrency());
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (PlannedIteration it : todo) {
        futures.add(
            pool.submit(
                () -> {
                  runIteration(it, count.incrementAndGet(), worst);
                  return null;
                }));
      }
      for (Future<?> f : futures) {
        try {
          f.get();
        } catch (ExecutionException e) {
          pool.shutdownNow();
          throw e.getCause() instanceof Exception ex ? ex : new RuntimeException(e.getCause());
        }
      }
    } finally {
      pool.shutdownNow();
    }
    return worst.get();
  }

  private void runIteration(PlannedIteration it, int number, AtomicInteger worst) throws Exception {
    RunLog.say(
        "Iteration %d/%d: %s (iteration %d of %s)",
        number, plan.iterations().size(), it.marker(), it.iteration(), it.job());
    Instant started = Instant.now();
    int exit;
    try {
      exit = new RoundRunner(spec(it)).withCalibration(run.machineCalibration()).run();
    } catch (Exception e) {
      throw new IOException(
          "iteration " + it.marker() + " (job " + it.job() + "): " + e.getMessage(), e);
    }
    Instant ended = Instant.now();
    RoundSummary summary =
        RunJson.read(iterationDirectory(it).resolve(RunFiles.SUMMARY), RoundSummary.class);
    ResultRecords records =
        new ResultRecords(
            new ResultRecords.Step(
                run.runId(),
                run.scenario(),
                run.target(),
                it.iteration(),
                it.job(),
                ended.toString()));
    records.round(it.job(), summary, labels.get(it.job()));
    synchronized (dir) {
      dir.finish(
          new StepStatus(
              it.marker(),
              it.job(),
              it.iteration(),
              List.of(it.job()),
              List.of(it.job()),
              List.of(it.job()),
              "until drained",
              exit == ExitCodes.OK,
              started.toString(),
              ended.toString(),
              0),
          records.records());
    }
    worst.accumulateAndGet(exit, Math::max);
    RunLog.say(
        "Iteration %s done: %s rows/s steady, %,d lost, %,d duplicates",
        it.marker(),
        summary.rowsPerSecond() == null
            ? "n/a"
            : String.format(Locale.ROOT, "%,.0f", summary.rowsPerSecond()),
        summary.lost(),
        summary.duplicates());
  }
}
