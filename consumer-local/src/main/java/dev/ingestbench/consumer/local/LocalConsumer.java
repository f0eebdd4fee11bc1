package dev.ingestbench.consumer.local;

import dev.ingestbench.consumer.ConsumerConfig;
import dev.ingestbench.consumer.ConsumerOptions;
import dev.ingestbench.consumer.ConsumerPipeline;
import dev.ingestbench.consumer.ConsumerPipeline.Outcome;
import dev.ingestbench.consumer.SinkKind;
import dev.ingestbench.consumer.SourceKind;
import dev.ingestbench.consumer.rows.RowSchemas;
import dev.ingestbench.consumer.sink.EmulatorBigQueryServices;
import dev.ingestbench.consumer.sink.TablesAhead;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.JobRouting;
import dev.ingestbench.contracts.MainErrors;
import java.io.IOException;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer as it runs on this machine: the pipeline of {@link ConsumerPipeline} on embedded
 * Flink (the default without a GCP runner), writing to a BigQuery emulator in this JVM or a shared
 * one, driven until every expected message is accounted for. With a GCP runner it submits, as the
 * pipeline does. What {@code ingestbench consume}, rounds and staged runs start.
 */
public final class LocalConsumer {
  private static final Logger LOG = LoggerFactory.getLogger(LocalConsumer.class);

  private LocalConsumer() {}

  /**
   * Parses flags with the local defaults (embedded Flink, checkpoints) when no GCP runner is named.
   */
  public static ConsumerOptions parse(String[] args) {
    PipelineOptionsFactory.register(ConsumerOptions.class);
    return PipelineOptionsFactory.fromArgs(LocalRunnerDefaults.apply(args))
        .withValidation()
        .as(ConsumerOptions.class);
  }

  /**
   * Parses and validates {@code args} once, then runs the consumer: locally against the emulator
   * (driven to completion), or submitted to Dataflow. Bad flags throw {@link
   * IllegalArgumentException} before anything starts.
   */
  public static Outcome run(String[] args) throws Exception {
    ConsumerOptions options = parse(args);
    ConsumerConfig config = ConsumerConfig.from(options);
    if (!config.sink().isLocal()) {
      return ConsumerPipeline.submit(options, config);
    }
    if (config.runnerName().equals("FlinkRunner") && OwnJvm.isIsolated(LocalConsumer.class)) {
      int exit = OwnJvm.run(LocalConsumer.class, args);
      return switch (exit) {
        case ExitCodes.OK -> Outcome.COMPLETE;
        case ExitCodes.INCOMPLETE -> Outcome.INCOMPLETE;
        default ->
            throw new IOException(
                "the consumer's own JVM failed (exit " + exit + "); see its output above");
      };
    }
    return runLocally(options, config).complete() ? Outcome.COMPLETE : Outcome.INCOMPLETE;
  }

  /**
   * Runs the consumer in this JVM against a BigQuery emulator (its own, or the shared one of {@code
   * --sink=emulator}) until every expected message is accounted for (or the timeout), then stops
   * its own emulator and removes the run's checkpoints; also when the process is asked to stop
   * (SIGTERM, Ctrl-C), with the results so far.
   */
  public static LocalRun.Result runLocally(ConsumerOptions options, ConsumerConfig config)
      throws Exception {
    ClientLogging.quietForLocalRuns();
    LocalRunnerDefaults.deleteOrphanedCheckpoints();
    String savepoint = options.as(FlinkPipelineOptions.class).getSavepointPath();
    if (savepoint != null) {
      LOG.info(
          "Restoring the job's state (keyed state, timers, source positions) from the Flink checkpoint {}",
          savepoint);
    }
    try (StopSignal stop = StopSignal.install()) {
      try (EmulatorView emulator = emulator(options, config)) {
        EmulatorBigQueryServices services =
            new EmulatorBigQueryServices(emulator.storageWriteEndpoint());
        if (config.target().tables() > 1) {
          emulator.declareRouting(
              new JobRouting(
                  config.target().dataset(),
                  config.target().table(),
                  config.target().tables(),
                  config.target().routing().skew().flag()));
        }
        TablesAhead.create(
            config.target(),
            RowSchemas.forFormat(config.rowFormat()),
            options.as(BigQueryOptions.class),
            services);
        Pipeline pipeline = Pipeline.create(options);
        ConsumerPipeline.build(pipeline, config, services);
        return LocalRun.drive(pipeline, emulator, config, stop);
      } finally {
        LocalRunnerDefaults.deleteCheckpoints(options);
      }
    }
  }

  private static EmulatorView emulator(ConsumerOptions options, ConsumerConfig config)
      throws IOException {
    return config.sink() == SinkKind.EMULATOR
        ? new RemoteEmulator(
            config.storageWriteEndpoint(), options.getBigQueryEndpoint(), config.jobName())
        : InProcessEmulator.start(
            options,
            config.jobName(),
            options.getPublishedMessages(),
            config.runId(),
            config.source() == SourceKind.SYNTHETIC
                ? Long.valueOf(options.getSeed())
                : options.getContentSeed(),
            config.localOutputDir());
  }

  public static void main(String[] args) {
    System.exit(MainErrors.run("consumer", () -> run(args).exitCode()));
  }
}
