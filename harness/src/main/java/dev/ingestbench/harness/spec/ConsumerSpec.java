package dev.ingestbench.harness.spec;

import dev.ingestbench.contracts.job.JobSink;
import dev.ingestbench.harness.process.BigQueryEmulatorProcess;
import dev.ingestbench.harness.stack.LocalStack;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One consumer as a local run starts it ({@code ingestbench consume}, the consumer-local main):
 * every setting typed, for a round's job and a scenario's alike, and its flags written in one place
 * ({@link #args}), each flag name once. What only exists once the servers run (their addresses, a
 * Flink cluster's master, a checkpoint to restore) is given to {@link #args}; the consumer's own
 * parser checks the values before anything starts.
 *
 * @param runner FlinkRunner (embedded, or submitting to a cluster) or DirectRunner
 * @param job the job's name: its client's trace id, and how the BigQuery emulator counts it
 * @param reads where it reads
 * @param messageFormat json or avro
 * @param settings how it writes
 * @param runTag the run's id and the event indexes it may see (a round's), or null
 * @param expected it stops by itself once it has accounted for this many messages; 0: never
 * @param timeoutSeconds it stops by itself after this long
 * @param directory where it writes its results
 * @param stopsWhenParentExits it stops (and writes what it has) when the process that started it is
 *     gone, even by SIGKILL
 * @param stopsOnStdinEof it stops (and writes its results) when its standard input closes: how a
 *     stage stops a job
 * @param sink where its rows go
 * @param contentSeed the seed its events were published with, which an in-process sink checks every
 *     row's content against (the emulator process is told it itself), or null
 * @param checkpoints where it keeps its Flink checkpoints (where a killed consumer's restart, or a
 *     savepoint's restore, finds them), or null for the consumer's own default
 * @param clusterParallelism with a Flink cluster, the parallelism it is submitted with; null:
 *     embedded Flink
 * @param extra flags given as they are ({@code round --consumer-arg}), last
 */
public record ConsumerSpec(
    String runner,
    String job,
    Reads reads,
    String messageFormat,
    JobSettings settings,
    RunTag runTag,
    long expected,
    long timeoutSeconds,
    Path directory,
    boolean stopsWhenParentExits,
    boolean stopsOnStdinEof,
    JobSink sink,
    Long contentSeed,
    Path checkpoints,
    Integer clusterParallelism,
    List<String> extra) {

  public ConsumerSpec {
    extra = List.copyOf(extra);
  }

  /** Where a consumer reads. */
  public sealed interface Reads {
    /** The same, pulling {@code pullBatchSize} messages at a time where the source pulls. */
    default Reads withPullBatchSize(Integer pullBatchSize) {
      return this;
    }
  }

  /**
   * A subscription of the Pub/Sub emulator; {@code pullBatchSize} null keeps the consumer's
   * default.
   */
  public record PubsubReads(String subscription, Integer pullBatchSize) implements Reads {
    @Override
    public Reads withPullBatchSize(Integer size) {
      return new PubsubReads(subscription, size);
    }
  }

  /** A topic of the Kafka broker, in a consumer group. */
  public record KafkaReads(String topic, String group) implements Reads {}

  /** A round's id, which tags every file the consumer writes, and the event indexes it may see. */
  public record RunTag(String runId, long published) {}

  /**
   * The consumer's flags.
   *
   * @param sourceHost the Pub/Sub emulator's or the Kafka broker's HOST:PORT
   * @param bigQuery the shared BigQuery emulator (ignored with {@link JobSink#IN_PROCESS})
   * @param flinkMaster the Flink cluster's REST endpoint (ignored with embedded Flink)
   * @param filesToStage the jars a cluster job stages, or null for the consumer's whole classpath
   * @param restore a savepoint or checkpoint URI it restores from, or null to start afresh
   */
  public List<String> args(
      String sourceHost,
      BigQueryEmulatorProcess.Address bigQuery,
      String flinkMaster,
      String filesToStage,
      String restore) {
    List<String> flags = new ArrayList<>();
    flags.add(ChildFlag.RUNNER.is(runner));
    flags.add(ChildFlag.JOB_NAME.is(job));
    if (runTag != null) {
      flags.add(ChildFlag.RUN_ID.is(runTag.runId()));
      flags.add(ChildFlag.PUBLISHED_MESSAGES.is(runTag.published()));
    }
    if (checkpoints != null) {
      flags.add(ChildFlag.STATE_BACKEND.is("filesystem"));
      flags.add(ChildFlag.STATE_BACKEND_STORAGE_PATH.is(checkpoints.toUri()));
    }
    if (reads instanceof PubsubReads p) {
      flags.add(ChildFlag.PUBSUB_EMULATOR_HOST.is(sourceHost));
      flags.add(ChildFlag.SUBSCRIPTION.is(p.subscription()));
      if (p.pullBatchSize() != null) {
        flags.add(SettingFlag.PULL_BATCH_SIZE.child(p.pullBatchSize()));
      }
    } else if (reads instanceof KafkaReads k) {
      flags.add(ChildFlag.SOURCE.is("kafka"));
      flags.add(ChildFlag.BOOTSTRAP_SERVERS.is(sourceHost));
      flags.add(ChildFlag.KAFKA_TOPIC.is(k.topic()));
      flags.add(ChildFlag.CONSUMER_GROUP.is(k.group()));
    }
    flags.add(ChildFlag.PROJECT.is(LocalStack.PROJECT));
    flags.add(ChildFlags.messageFormat(messageFormat));
    flags.add(ChildFlag.OUTPUT_TABLE.is(LocalStack.TABLE));
    flags.addAll(settings.consumerFlags());
    flags.add(ChildFlag.EXPECTED_MESSAGES.is(expected));
    flags.add(ChildFlag.TIMEOUT_SECONDS.is(timeoutSeconds));
    flags.add(ChildFlag.PROGRESS_LINES.is("true"));
    flags.add(ChildFlag.LOCAL_OUTPUT_DIR.is(directory));
    if (stopsWhenParentExits) {
      flags.add(ChildFlag.STOP_WHEN_PARENT_EXITS.is("true"));
    }
    if (stopsOnStdinEof) {
      flags.add(ChildFlag.STOP_ON_STDIN_EOF.is("true"));
    }
    if (clusterParallelism != null) {
      flags.add(ChildFlag.FLINK_MASTER.is(flinkMaster));
      flags.add(ChildFlag.PARALLELISM.is(clusterParallelism));
      if (filesToStage != null) {
        flags.add(ChildFlag.FILES_TO_STAGE.is(filesToStage));
      }
    }
    flags.add(ChildFlag.SINK.is(sink.flag()));
    if (sink == JobSink.EMULATOR) {
      flags.add(ChildFlag.STORAGE_WRITE_ENDPOINT.is(bigQuery.grpc()));
      flags.add(ChildFlag.BIG_QUERY_ENDPOINT.is(bigQuery.rest()));
    } else if (contentSeed != null) {
      flags.add(ChildFlag.CONTENT_SEED.is(contentSeed));
    }
    if (restore != null) {
      // Flink's own mechanism: Beam's FlinkRunner hands it to a cluster at submission; an
      // embedded Flink gets it through its configuration.
      flags.add(ChildFlag.SAVEPOINT_PATH.is(restore));
    }
    flags.addAll(extra);
    return List.copyOf(flags);
  }
}
