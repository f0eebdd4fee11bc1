package dev.ingestbench.harness.spec;

import dev.ingestbench.bigquery.EmulatorLimitOptions;
import dev.ingestbench.consumer.local.LocalRunnerDefaults;
import dev.ingestbench.harness.process.BigQueryEmulatorProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place the flags of the processes a local run starts are written: each flag name appears
 * here once, for rounds, staged runs and unordered iterations alike. Each builder says what it
 * sets; the process's own parser (run before anything starts) checks the values.
 */
public final class ChildFlags {
  private ChildFlags() {}

  /** A consumer's flags ({@code ingestbench consume}, the consumer-local main). */
  public static final class Consumer {
    private final List<String> flags = new ArrayList<>();

    /**
     * @param runner FlinkRunner (embedded) or DirectRunner; {@code jobName} is what its client
     *     sends as trace id
     */
    public Consumer(String runner, String jobName) {
      flags.add("--runner=" + runner);
      flags.add("--jobName=" + jobName);
    }

    /**
     * Reads {@code subscription} on the Pub/Sub emulator at {@code host}; {@code pullBatchSize}
     * null keeps the default.
     */
    public Consumer pubsub(String host, String subscription, Integer pullBatchSize) {
      flags.add("--pubsubEmulatorHost=" + host);
      flags.add("--subscription=" + subscription);
      if (pullBatchSize != null) {
        flags.add("--emulatorPullBatchSize=" + pullBatchSize);
      }
      return this;
    }

    /**
     * Reads {@code topic} from the Kafka broker at {@code bootstrap} in consumer group {@code
     * group}.
     */
    public Consumer kafka(String bootstrap, String topic, String group) {
      flags.addAll(
          List.of(
              "--source=kafka",
              "--bootstrapServers=" + bootstrap,
              "--kafkaTopic=" + topic,
              "--consumerGroup=" + group));
      return this;
    }

    /**
     * Messages of {@code messageFormat} into {@code table} of {@code project}, written as {@code
     * settings} say.
     */
    public Consumer writes(
        String project, String messageFormat, String table, JobSettings settings) {
      flags.addAll(
          List.of(
              "--project=" + project,
              "--messageFormat=" + messageFormat,
              "--outputTable=" + table));
      flags.addAll(settings.consumerFlags());
      return this;
    }

    /**
     * Stops once {@code expected} messages are accounted for (0: never by itself), or after {@code
     * timeoutSeconds}; prints progress lines and writes its results to {@code directory}.
     */
    public Consumer runs(long expected, long timeoutSeconds, Path directory) {
      flags.addAll(
          List.of(
              "--expectedMessages=" + expected,
              "--timeoutSeconds=" + timeoutSeconds,
              "--progressLines=true",
              "--localOutputDir=" + directory));
      return this;
    }

    /** Writes to the shared BigQuery emulator at {@code bigQuery}. */
    public Consumer emulator(BigQueryEmulatorProcess.Address bigQuery) {
      flags.addAll(
          List.of(
              "--sink=emulator",
              "--storageWriteEndpoint=" + bigQuery.grpc(),
              "--bigQueryEndpoint=" + bigQuery.rest()));
      return this;
    }

    /** Writes to a BigQuery emulator inside its own JVM. */
    public Consumer inProcess() {
      flags.add("--sink=in-process");
      return this;
    }

    /** Stops (and writes what it has) when the process that started it is gone, even by SIGKILL. */
    /**
     * Submitted to the Flink cluster whose REST endpoint is {@code master} with {@code
     * parallelism}, instead of run on an embedded Flink.
     */
    /**
     * Submits to the cluster at {@code master}, staging {@code filesToStage} when it is not null
     * (else the consumer stages every jar of its classpath).
     */
    public Consumer flinkCluster(String master, int parallelism, String filesToStage) {
      flags.add("--flinkMaster=" + master);
      flags.add("--parallelism=" + parallelism);
      if (filesToStage != null) {
        flags.add("--filesToStage=" + filesToStage);
      }
      return this;
    }

    public Consumer stopsWhenParentExits() {
      flags.add("--stopWhenParentExits=true");
      return this;
    }

    /** Stops (and writes its results) when its standard input closes: how a stage stops a job. */
    public Consumer stopsOnStdinEof() {
      flags.add("--stopOnStdinEof=true");
      return this;
    }

    /**
     * Tags every file it writes with the round's id; {@code published} bounds the event indexes it
     * may see.
     */
    public Consumer round(String runId, long published) {
      flags.addAll(List.of("--runId=" + runId, "--publishedMessages=" + published));
      return this;
    }

    /**
     * Keeps Flink checkpoints under {@code directory}, where a killed consumer's restart finds
     * them.
     */
    public Consumer checkpointsIn(Path directory) {
      flags.addAll(
          List.of("--stateBackend=filesystem", "--stateBackendStoragePath=" + directory.toUri()));
      return this;
    }

    /**
     * Restores the job from {@code savepoint} with Flink's own mechanism: Beam's FlinkRunner hands
     * it to a cluster at submission; an embedded Flink gets it through its configuration.
     */
    public Consumer restoresFrom(String savepoint) {
      flags.add("--savepointPath=" + savepoint);
      return this;
    }

    /** Flags given as they are ({@code round --consumer-arg}). */
    public Consumer extra(List<String> extra) {
      flags.addAll(extra);
      return this;
    }

    public List<String> build() {
      return List.copyOf(flags);
    }
  }

  /** A publisher's flags ({@code ingestbench publish}). */
  public static final class Publisher {
    private final List<String> flags = new ArrayList<>();

    /**
     * Publishes to {@code topic} on the Pub/Sub emulator at {@code host}, creating {@code
     * subscriptions} first.
     */
    public static Publisher pubsub(String host, String topic, List<String> subscriptions) {
      Publisher p = new Publisher();
      p.flags.addAll(
          List.of(
              "--pubsubEmulatorHost=" + host,
              "--topic=" + topic,
              "--createSubscriptions=" + String.join(",", subscriptions)));
      return p;
    }

    /** Publishes to {@code topic} on the Kafka broker at {@code bootstrap}. */
    public static Publisher kafka(String bootstrap, String topic) {
      Publisher p = new Publisher();
      p.flags.addAll(
          List.of("--sink=kafka", "--bootstrapServers=" + bootstrap, "--kafkaTopic=" + topic));
      return p;
    }

    /**
     * Events {@code first..first+count-1} of {@code messageSize} bytes; {@code seed} null keeps the
     * default.
     */
    public Publisher events(
        String project, String messageFormat, long first, long count, int messageSize, Long seed) {
      flags.addAll(
          List.of(
              "--project=" + project,
              "--messageFormat=" + messageFormat,
              "--firstEventIndex=" + first,
              "--numMessages=" + count,
              "--messageSizeBytes=" + messageSize));
      if (seed != null) {
        flags.add("--seed=" + seed);
      }
      return this;
    }

    /**
     * Writes what Pub/Sub (or Kafka) acknowledged to {@code resultFile}, tagged with {@code runId}
     * when not null.
     */
    public Publisher result(Path resultFile, String runId) {
      flags.add("--resultFile=" + resultFile);
      if (runId != null) {
        flags.add("--runId=" + runId);
      }
      return this;
    }

    /**
     * At {@code rate} messages/s, on embedded Flink ({@link LocalRunnerDefaults#boundedEmbedded}
     * says why not on the DirectRunner); 0 as fast as it can, on the DirectRunner, which starts
     * sooner and is done in seconds.
     */
    public Publisher rate(double rate) {
      if (rate > 0) {
        flags.add("--ratePerSecond=" + rate);
        if (rate <= ONE_SHARD_MAX_RATE) {
          flags.add("--publisherShards=1");
        }
        flags.addAll(LocalRunnerDefaults.boundedEmbedded());
      }
      return this;
    }

    /**
     * The highest paced rate given to one publishing shard. Each shard's client sends a batch every
     * --batchDelayMs (10 ms) that holds a message, so at a few hundred msg/s a second shard doubles
     * the publish calls (and their CPU, in the publisher and in the Pub/Sub emulator, beside the
     * consumer being measured) without sending more. Measured on 2 vCPUs beside a consumer: steps
     * of 5,000 and 20,000 msg/s (50,000 messages) took one shard 10.8 s and two shards 9.9 s;
     * neither kept the 20,000 step: there the machine was the limit (docs/local-mode.md).
     */
    static final double ONE_SHARD_MAX_RATE = 5_000;

    public List<String> build() {
      return List.copyOf(flags);
    }
  }

  /**
   * The BigQuery emulator's flags: free ports, its files into {@code out}, stopping when its
   * standard input closes, and {@code limits}; a round adds its id and the published count; {@code
   * contentSeed}, the publishers' seed, has every row's content checked.
   */
  public static List<String> bigQueryEmulator(
      Path out, EmulatorLimitOptions limits, String runId, Long published, Long contentSeed) {
    List<String> flags =
        new ArrayList<>(
            List.of("--port=0", "--rest-port=0", "--out=" + out, "--exit-on-stdin-eof"));
    if (runId != null) {
      flags.add("--run-id=" + runId);
    }
    if (published != null) {
      flags.add("--published-messages=" + published);
    }
    if (contentSeed != null) {
      flags.add("--content-seed=" + contentSeed);
    }
    flags.addAll(limits.asFlags());
    return flags;
  }
}
