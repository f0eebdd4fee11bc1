package dev.ingestbench.harness.staged;

import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.harness.flink.PipelineRunner;
import dev.ingestbench.harness.process.ProcessLauncher;
import dev.ingestbench.scenario.ScenarioPlan;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The local target of a staged scenario: one Pub/Sub emulator (or Kafka broker) and one BigQuery
 * emulator shared by every job, the backlog published when a segment opens (and live messages
 * during the stages), one consumer JVM per job. {@link StagedDriver} sequences, measures and judges
 * the stages.
 *
 * <p>Local servers keep no state between runs, so each segment publishes the backlog again.
 */
public final class LocalTarget implements StageTarget, PlannedRun {
  /**
   * How long a resumed run waits for the jobs it starts again to be steady, unless --warm-up-max
   * says.
   */
  public static final Duration DEFAULT_WARM_UP_MAX = Duration.ofMinutes(2);

  private final ScenarioPlan plan;
  private final Duration warmUpMax;
  private final RunDirectory dir;
  private final ScenarioRun run;
  private final LocalServices services;
  private final ScenarioConsumers consumers;
  private final PipelineRunner runner;
  private final Map<String, Map<String, String>> labels;

  /** Runs the plan's max-rate stages (rounds of their own); none until given. */
  private StageExecutor maxRates;

  /** Opens each segment; the open one's source is what a load-test stage measures. */
  private final LocalSegments segments;

  /**
   * @param runner where the jobs' pipelines run: embedded Flink in each job's JVM, or the Flink
   *     cluster of {@code --target flink}
   */
  public LocalTarget(
      ScenarioPlan plan,
      RunDirectory dir,
      ScenarioRun run,
      String heap,
      Duration warmUpMax,
      PipelineRunner runner) {
    this(plan, dir, run, heap, warmUpMax, runner, ProcessLauncher.SYSTEM);
  }

  /** As above, its publishers and consumers started by {@code launcher}. */
  LocalTarget(
      ScenarioPlan plan,
      RunDirectory dir,
      ScenarioRun run,
      String heap,
      Duration warmUpMax,
      PipelineRunner runner,
      ProcessLauncher launcher) {
    this.plan = plan;
    this.runner = runner;
    this.warmUpMax = warmUpMax;
    this.dir = dir;
    this.run = run;
    long longest = plan.stages().stream().mapToLong(s -> s.longest().getSeconds()).sum();
    this.consumers = new ScenarioConsumers(plan, longest + warmUpMax.getSeconds() + 600, runner);
    this.services = new LocalServices(plan, ScenarioSource.of(plan), consumers, dir, runner);
    this.labels = consumers.resultLabels(plan.jobs().keySet(), run.machine());
    this.segments =
        new LocalSegments(
            plan,
            services,
            new LocalJobs(consumers, heap, runner, launcher),
            runner,
            heap,
            launcher,
            StageTarget.Measures.EVERY_JOB_FIGURE,
            segment -> segment);
  }

  /** Every job's result labels: its settings as it runs, the run's scale and machine. */
  @Override
  public Map<String, Map<String, String>> resultLabels() {
    return labels;
  }

  /** Who runs the plan's {@code find_max_rate} stages. */
  public LocalTarget withMaxRateStages(StageExecutor stages) {
    this.maxRates = stages;
    return this;
  }

  private StagedDriver driver() {
    return new StagedDriver(plan, dir, run, this, warmUpMax, Ticker.system(), labels)
        .withExecutors(executors());
  }

  /** Who runs the stages that start no job: load tests here, max-rate searches as given. */
  private StageExecutors executors() {
    return new StageExecutors(
        new LoadTestStages(plan, run, dir.root(), () -> segments.current().sourceHost()), maxRates);
  }

  /** --dry-run: every action, with the command line of every process, and nothing started. */
  @Override
  public void describe(PrintStream out) {
    new LocalDryRun(plan, services, consumers, executors(), measures())
        .print(
            out,
            plan.scenario().name(),
            dir.root(),
            dir.root().resolve("segment-N"),
            driver().firstUnfinished(),
            warmUpMax);
  }

  /** Runs the unfinished stages here; returns the verification policy's exit code. */
  @Override
  public int run() throws Exception {
    return driver().run();
  }

  @Override
  public Measures measures() {
    return segments.measures();
  }

  @Override
  public Segment open(int segmentNo, Path segment) throws Exception {
    return segments.open(segmentNo, segment);
  }
}
