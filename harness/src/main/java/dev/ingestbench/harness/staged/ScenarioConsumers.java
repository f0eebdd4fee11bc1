package dev.ingestbench.harness.staged;

import dev.ingestbench.consumer.ConsumerConfig;
import dev.ingestbench.consumer.local.LocalConsumer;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.harness.flink.PipelineRunner;
import dev.ingestbench.harness.process.BigQueryEmulatorProcess;
import dev.ingestbench.harness.spec.ConsumerSpec;
import dev.ingestbench.harness.spec.JobLabels;
import dev.ingestbench.harness.spec.JobSettings;
import dev.ingestbench.scenario.JobConfig;
import dev.ingestbench.scenario.ScenarioPlan;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A local scenario's consumers, one per job, built from the scenario and checked by the consumer's
 * own validation before anything starts: each named by its job, its files in the segment.
 */
public final class ScenarioConsumers implements ConsumerPlan {
  private static final String UNSTARTED_HOST = "127.0.0.1:1";
  private static final BigQueryEmulatorProcess.Address UNSTARTED_BIGQUERY =
      new BigQueryEmulatorProcess.Address("127.0.0.1:1", "http://127.0.0.1:1");

  private final ScenarioPlan plan;

  /** Where the consumers read. */
  private final ScenarioSource source;

  private final long timeoutSeconds;

  /**
   * Where the jobs' pipelines run: embedded Flink in each job's JVM, or --target flink's cluster.
   */
  private final PipelineRunner runner;

  private final Map<String, ConsumerConfig> configs = new LinkedHashMap<>();

  /**
   * Validates every job's consumer flags; throws {@link IllegalArgumentException} naming the job.
   *
   * @param timeoutSeconds how long a consumer may run before it stops by itself
   */
  public ScenarioConsumers(ScenarioPlan plan, long timeoutSeconds, PipelineRunner runner) {
    this.plan = plan;
    this.source = ScenarioSource.of(plan);
    this.runner = runner;
    this.timeoutSeconds = timeoutSeconds;
    for (String job : plan.jobs().keySet()) {
      try {
        configs.put(
            job,
            ConsumerConfig.from(
                LocalConsumer.parse(
                    LocalJobs.args(
                            consumer(job, Path.of("unstarted")),
                            UNSTARTED_HOST,
                            UNSTARTED_BIGQUERY,
                            Optional.empty(),
                            null)
                        .toArray(new String[0]))));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "jobs." + job + ": the consumer cannot run with these settings: " + e.getMessage(), e);
      }
    }
  }

  @Override
  public ConsumerSpec consumer(String job, Path segment) {
    return new ConsumerSpec(
        runner.beamRunner(),
        job,
        source.reads(job),
        plan.messageFormat(),
        JobSettings.of(plan.jobs().get(job)),
        null,
        // A fed job reads for as long as its stages run: it never stops by itself.
        plan.fedLocally() ? 0 : plan.messages(),
        timeoutSeconds,
        directory(segment, job),
        false,
        true, // a stage stops it
        plan.jobs().get(job).resolvedSink(),
        LocalServices.EVENT_SEED,
        // Kept in the run's directory: the consumer's own default is deleted when it exits, and
        // the savepoint (or the checkpoint a killed consumer restores) must outlive the consumer
        // that wrote it.
        plan.savepointed(job) || plan.killed(job) ? flinkState(segment, job) : null,
        runner.jobParallelism(),
        List.of());
  }

  @Override
  public String processName(String job) {
    return job;
  }

  @Override
  public Path logs(Path segment) {
    return segment;
  }

  /** Where job {@code job}'s Flink checkpoints and savepoints go in {@code segment}. */
  static Path flinkState(Path segment, String job) {
    return segment.resolve("flink-state").resolve(RunFiles.jobDirectory(job));
  }

  static Path directory(Path segment, String job) {
    return segment.resolve(RunFiles.jobDirectory(job));
  }

  /** Every setting of the job as it will run (the consumer's defaults filled in), for results. */
  Map<String, String> labels(String job) {
    JobConfig j = plan.jobs().get(job);
    return JobLabels.of(configs.get(job), plan.messageSize(), j.workers(), j.machineType());
  }

  /**
   * {@link #labels} of every job, plus the run's scale and machine: what each result record
   * carries.
   */
  public Map<String, Map<String, String>> resultLabels(Collection<String> names, String machine) {
    Map<String, Map<String, String>> all = new LinkedHashMap<>();
    for (String job : names) {
      Map<String, String> l = new LinkedHashMap<>(labels(job));
      l.putAll(JobLabels.run(plan.scale(), machine));
      all.put(job, l);
    }
    return all;
  }
}
