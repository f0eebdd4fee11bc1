package dev.ingestbench.consumer;

import dev.ingestbench.consumer.sink.TableTarget;
import dev.ingestbench.consumer.source.KafkaSource;
import dev.ingestbench.contracts.FlagValues;
import dev.ingestbench.contracts.StopMode;
import dev.ingestbench.contracts.job.RowEncoding;
import dev.ingestbench.contracts.job.RowFormat;
import dev.ingestbench.contracts.job.TableCreation;
import dev.ingestbench.contracts.job.TableSkew;
import dev.ingestbench.contracts.job.WriteConflict;
import dev.ingestbench.contracts.job.WriteMethod;
import dev.ingestbench.events.MessageFormat;
import dev.ingestbench.pubsub.PubsubAdmin;
import dev.ingestbench.pubsub.PubsubPaths;
import java.nio.file.Path;
import org.apache.beam.runners.dataflow.options.DataflowPipelineOptions;
import org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory;
import org.apache.beam.sdk.extensions.gcp.options.GcpOptions;
import org.apache.beam.sdk.options.ExperimentalOptions;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The consumer's flags, parsed and checked once at launch into the values every part of the
 * consumer receives: invalid values and combinations fail here with a message naming the flags and
 * the fix, never on a worker hours later.
 *
 * @param subscriptionPath {@code projects/P/subscriptions/S}; null unless the source is Pub/Sub
 * @param kafka the brokers, topic and group to read; null unless the source is Kafka
 * @param messageFormat how payloads are written (JSON or Avro)
 * @param maxMessageBytes larger messages are dead-lettered (stage {@code size}) before conversion
 * @param triggeringFrequencySec how often exactly-once commits; null for at-least-once
 * @param expectedMessages a local run stops once this many are accounted for; 0 waits for the
 *     timeout (or the end of the synthetic source)
 * @param localOutputDir where a local run writes its files; null writes none
 * @param sink LOCAL, EMULATOR or BIGQUERY: never AUTO
 * @param storageWriteEndpoint the emulator's gRPC address with {@link SinkKind#EMULATOR}
 * @param duplicateGraceSeconds a local run keeps watching this long after completeness, for late
 *     duplicates
 * @param failAtMessage converting the N-th message throws once per job and JVM (a worker failure);
 *     0 never
 * @param stopWith how a local run asked to stop before it is complete ends its pipeline
 * @param runId the round this run belongs to, written into its result; null for a run of its own
 * @param jobName what the Storage Write API client sends in its trace id; the emulator verifies
 *     rows per job by it
 * @param pubsubIdAttribute the attribute the Pub/Sub read de-duplicates on; empty for the message
 *     id
 * @param maxPoolConnections Beam's {@code --maxConnectionPoolConnections}: the pool's most
 *     connections per worker (Beam's default {@value #DEFAULT_MAX_POOL_CONNECTIONS}); used with the
 *     connection pool only
 * @param quietPeriodSeconds a local run that has read every expected message and written nothing
 *     for this long stops and verifies at once; 0 never
 */
public record ConsumerConfig(
    SourceKind source,
    SinkKind sink,
    @Nullable String storageWriteEndpoint,
    String jobName,
    String runnerName,
    @Nullable String subscriptionPath,
    @Nullable KafkaSource kafka,
    MessageFormat messageFormat,
    int maxMessageBytes,
    String emulatorHost,
    int emulatorPullBatchSize,
    SyntheticSource synthetic,
    RowFormat rowFormat,
    RowEncoding rowEncoding,
    WriteMethod writeMethod,
    @Nullable Integer triggeringFrequencySec,
    boolean connectionPool,
    int maxPoolConnections,
    int numStorageWriteApiStreams,
    TableTarget target,
    boolean validateOutputTable,
    long expectedMessages,
    long timeoutSeconds,
    @Nullable Path localOutputDir,
    boolean progressLines,
    boolean stopOnStdinEof,
    boolean stopWhenParentExits,
    StopMode stopWith,
    @Nullable String runId,
    int duplicateGraceSeconds,
    long failAtMessage,
    String pubsubIdAttribute,
    long quietPeriodSeconds) {
  /** Beam's own default for {@code --maxConnectionPoolConnections}. */
  public static final int DEFAULT_MAX_POOL_CONNECTIONS = 20;

  /** What the in-pipeline generator makes with {@code --source=synthetic}. */
  public record SyntheticSource(long messages, long seed, int messageSizeBytes) {}

  /** The Kafka flags, which only {@code --source=kafka} reads. */
  private static final String[] KAFKA_FLAGS = {
    "--bootstrapServers", "--kafkaTopic", "--kafkaConsumerConfig", "--kafkaGcpAuth"
  };

  /**
   * Validates {@code options} and makes Beam's own BigQuery options agree with the result: the
   * write method goes into {@code --useStorageWriteApi*}, and the triggering frequency moves from
   * the pipeline-wide option onto the exactly-once write (so the at-least-once dead-letter write
   * does not warn that it ignores it).
   */
  public static ConsumerConfig from(ConsumerOptions options) {
    RowFormat format = RowFormat.fromFlag(options.getRowFormat());
    RowEncoding encoding = RowEncoding.fromFlag(options.getRowEncoding());
    WriteMethod method = writeMethod(options);
    SourceKind source = SourceKind.fromFlag(options.getSource());
    String runner = options.getRunner().getSimpleName();
    boolean dataflow = runner.equals("DataflowRunner");
    String endpoint = blankToNull(options.getStorageWriteEndpoint());
    SinkKind sink =
        switch (SinkKind.fromFlag(options.getSink())) {
          case AUTO ->
              dataflow ? SinkKind.BIGQUERY : endpoint != null ? SinkKind.EMULATOR : SinkKind.LOCAL;
          case LOCAL, EMULATOR, BIGQUERY -> SinkKind.fromFlag(options.getSink());
        };
    if (sink == SinkKind.EMULATOR
        && (endpoint == null || blankToNull(options.getBigQueryEndpoint()) == null)) {
      throw new IllegalArgumentException(
          "--sink=emulator needs the emulator's two addresses: --storageWriteEndpoint=HOST:PORT and"
              + " --bigQueryEndpoint=http://HOST:PORT, as `ingestbench bigquery-emulator` prints them");
    }
    if (sink != SinkKind.EMULATOR && endpoint != null) {
      throw new IllegalArgumentException(
          "--storageWriteEndpoint is only for --sink=emulator (or auto); drop it, or drop --sink="
              + options.getSink());
    }
    if (sink.isLocal() && dataflow) {
      throw new IllegalArgumentException(
          "--sink="
              + sink.flag()
              + " cannot run on Dataflow: a local BigQuery is not reachable from"
              + " Dataflow workers. Use --sink=bigquery (or auto).");
    }
    if (sink.isLocal()) {
      // The emulator takes no credentials; looking for Google credentials would only slow start-up.
      options.as(GcpOptions.class).setCredentialFactoryClass(NoopCredentialFactory.class);
    }
    TableTarget target =
        TableTarget.parse(
            "--outputTable",
            options.getOutputTable(),
            options.getProject(),
            options.getDestinationTables(),
            TableSkew.parse("--tableSkew", options.getTableSkew()),
            TableCreation.fromFlag("--createTables", options.getCreateTables()));
    MessageFormat messageFormat =
        MessageFormat.fromFlag("--messageFormat", options.getMessageFormat());
    String subscription = null;
    KafkaSource kafka = null;
    if (source == SourceKind.KAFKA) {
      kafka =
          KafkaSource.from(
              options.getBootstrapServers(),
              options.getKafkaTopic(),
              options.getConsumerGroup(),
              options.getKafkaConsumerConfig(),
              options.getKafkaGcpAuth());
    } else if (blankToNull(options.getBootstrapServers()) != null
        || blankToNull(options.getKafkaTopic()) != null
        || blankToNull(options.getKafkaConsumerConfig()) != null
        || options.getKafkaGcpAuth()) {
      throw new IllegalArgumentException(
          String.join(", ", KAFKA_FLAGS)
              + " are for --source=kafka; add it, or drop them with --source="
              + source.flag());
    }
    if (source == SourceKind.PUBSUB) {
      subscription =
          PubsubPaths.subscription(
              options.getProject(), "--subscription", options.getSubscription());
    } else if (source == SourceKind.SYNTHETIC && options.getSyntheticMessages() < 1) {
      throw new IllegalArgumentException(
          "--syntheticMessages="
              + options.getSyntheticMessages()
              + " must be 1 or more with --source=synthetic");
    }
    if (options.getMessageSizeBytes() < 1) {
      throw new IllegalArgumentException(
          "--messageSizeBytes=" + options.getMessageSizeBytes() + " must be 1 or more");
    }
    boolean pool = options.getUseStorageApiConnectionPool();
    Integer frequency = options.getStorageWriteApiTriggeringFrequencySec();
    for (WriteConflict conflict :
        WriteConflict.of(method, pool, options.getNumStorageWriteApiStreams(), frequency)) {
      String given =
          switch (conflict) {
            case CONNECTION_POOL -> "--useStorageApiConnectionPool=true";
            case STREAMS -> "--numStorageWriteApiStreams=" + options.getNumStorageWriteApiStreams();
            case TRIGGERING_FREQUENCY -> "--storageWriteApiTriggeringFrequencySec=" + frequency;
          };
      throw new IllegalArgumentException(
          given
              + " needs --writeMethod="
              + conflict.needs().flag()
              + ": "
              + conflict.why()
              + ". Remove it, or switch the write method.");
    }
    if (frequency != null && frequency < 1) {
      throw new IllegalArgumentException(
          "--storageWriteApiTriggeringFrequencySec=" + frequency + " must be 1 second or more");
    }
    if (options.getMinConnectionPoolConnections() != null
        && options.getMaxConnectionPoolConnections() != null
        && options.getMinConnectionPoolConnections() > options.getMaxConnectionPoolConnections()) {
      throw new IllegalArgumentException(
          "--minConnectionPoolConnections="
              + options.getMinConnectionPoolConnections()
              + " is above --maxConnectionPoolConnections="
              + options.getMaxConnectionPoolConnections()
              + "; make min <= max");
    }
    String idAttribute =
        options.getPubsubIdAttribute() == null ? "" : options.getPubsubIdAttribute().trim();
    if (!idAttribute.isEmpty() && source != SourceKind.PUBSUB) {
      throw new IllegalArgumentException(
          "--pubsubIdAttribute=" + idAttribute + " is for --source=pubsub; drop it");
    }
    if (options.getEmulatorPullBatchSize() < 1) {
      throw new IllegalArgumentException(
          "--emulatorPullBatchSize=" + options.getEmulatorPullBatchSize() + " must be 1 or more");
    }
    if (options.getMaxMessageBytes() < 1
        || options.getMaxMessageBytes() > ConsumerOptions.MAX_MESSAGE_BYTES_LIMIT) {
      throw new IllegalArgumentException(
          "--maxMessageBytes="
              + options.getMaxMessageBytes()
              + " must be between 1 and "
              + ConsumerOptions.MAX_MESSAGE_BYTES_LIMIT
              + " (a Storage Write append request holds at most 10 MB)");
    }
    if (options.getFailAtMessage() < 0) {
      throw new IllegalArgumentException(
          "--failAtMessage=" + options.getFailAtMessage() + " must be 0 (never) or more");
    }
    if (options.getDuplicateGraceSeconds() < 0) {
      throw new IllegalArgumentException(
          "--duplicateGraceSeconds=" + options.getDuplicateGraceSeconds() + " must be 0 or more");
    }
    long quiet = options.getQuietPeriodSeconds();
    // A redelivered message waits out the ack deadline, then a commit up to one trigger period.
    long mustExceed =
        PubsubAdmin.EMULATOR_ACK_DEADLINE_SECONDS
            + (method == WriteMethod.EXACTLY_ONCE && frequency != null ? frequency : 1);
    if (quiet < 0 || (quiet != 0 && quiet <= mustExceed && sink.isLocal())) {
      throw new IllegalArgumentException(
          "--quietPeriodSeconds="
              + quiet
              + " must be 0 (never) or above "
              + mustExceed
              + " s (the Pub/Sub emulator's ack deadline plus the triggering frequency): a shorter"
              + " quiet period could call a message lost that is still being redelivered or"
              + " committed; e.g. --quietPeriodSeconds="
              + Math.max(ConsumerOptions.DEFAULT_QUIET_PERIOD_SECONDS, mustExceed + 10));
    }
    if (options.getExpectedMessages() < 0) {
      throw new IllegalArgumentException(
          "--expectedMessages=" + options.getExpectedMessages() + " must be 0 (no target) or more");
    }
    if (options.getTimeoutSeconds() < 1) {
      throw new IllegalArgumentException(
          "--timeoutSeconds=" + options.getTimeoutSeconds() + " must be 1 or more");
    }
    if (method == WriteMethod.EXACTLY_ONCE
        && options.getNumStorageWriteApiStreams() == 0
        && dataflow
        && !streamingEngine(options)) {
      throw new IllegalArgumentException(
          "--writeMethod=exactly-once with Dataflow choosing the number of streams"
              + " (--numStorageWriteApiStreams=0, the default) needs Streaming Engine: add"
              + " --enableStreamingEngine=true, or set --numStorageWriteApiStreams=N");
    }
    if (method == WriteMethod.EXACTLY_ONCE && frequency == null) {
      // Beam requires a triggering frequency for exactly-once on unbounded input; 1 s is what the
      // reference rounds used and what keeps end-to-end latency low.
      frequency = 1;
    }
    options.setUseStorageWriteApi(true);
    options.setUseStorageWriteApiAtLeastOnce(method == WriteMethod.AT_LEAST_ONCE);
    options.setStorageWriteApiTriggeringFrequencySec(null);
    long expected =
        options.getExpectedMessages() > 0
            ? options.getExpectedMessages()
            : source == SourceKind.SYNTHETIC ? options.getSyntheticMessages() : 0;
    String outputDir = options.getLocalOutputDir();
    return new ConsumerConfig(
        source,
        sink,
        endpoint,
        options.getJobName(),
        runner,
        subscription,
        kafka,
        messageFormat,
        options.getMaxMessageBytes(),
        options.getPubsubEmulatorHost() == null ? "" : options.getPubsubEmulatorHost().trim(),
        options.getEmulatorPullBatchSize(),
        new SyntheticSource(
            options.getSyntheticMessages(), options.getSeed(), options.getMessageSizeBytes()),
        format,
        encoding,
        method,
        method == WriteMethod.EXACTLY_ONCE ? frequency : null,
        pool,
        options.getMaxConnectionPoolConnections() == null
            ? DEFAULT_MAX_POOL_CONNECTIONS
            : options.getMaxConnectionPoolConnections(),
        options.getNumStorageWriteApiStreams(),
        target,
        options.getValidateOutputTable(),
        expected,
        options.getTimeoutSeconds(),
        outputDir == null || outputDir.isBlank() ? null : Path.of(outputDir),
        options.getProgressLines(),
        options.getStopOnStdinEof(),
        options.getStopWhenParentExits(),
        FlagValues.parse("--stopWith", options.getStopWith(), StopMode.values(), StopMode::flag),
        options.getRunId(),
        options.getDuplicateGraceSeconds(),
        options.getFailAtMessage(),
        idAttribute,
        options.getQuietPeriodSeconds());
  }

  /**
   * {@code --writeMethod} in any spelling, or Beam's {@code --useStorageWriteApi} / {@code
   * --useStorageWriteApiAtLeastOnce} (the flags Google's templates use); when both are given they
   * must agree. Exactly-once when neither is.
   */
  static WriteMethod writeMethod(ConsumerOptions options) {
    WriteMethod fromBeam =
        options.getUseStorageWriteApiAtLeastOnce()
            ? WriteMethod.AT_LEAST_ONCE
            : options.getUseStorageWriteApi() ? WriteMethod.EXACTLY_ONCE : null;
    if (options.getWriteMethod() == null) {
      return fromBeam == null ? WriteMethod.EXACTLY_ONCE : fromBeam;
    }
    WriteMethod given = WriteMethod.fromFlag(options.getWriteMethod());
    if (fromBeam != null && fromBeam != given) {
      String beamFlags =
          fromBeam == WriteMethod.AT_LEAST_ONCE
              ? "--useStorageWriteApiAtLeastOnce=true"
              : "--useStorageWriteApi=true (without --useStorageWriteApiAtLeastOnce)";
      throw new IllegalArgumentException(
          "--writeMethod="
              + options.getWriteMethod()
              + " disagrees with Beam's "
              + beamFlags
              + ", which means "
              + fromBeam.flag()
              + ". Give one of them: drop the Beam flag, or use"
              + " --writeMethod="
              + fromBeam.flag());
    }
    return given;
  }

  private static @Nullable String blankToNull(@Nullable String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }

  /** The name rows record in {@code subscription_name}. */
  public String sourceName() {
    return switch (source) {
      case PUBSUB -> PubsubPaths.shortName(subscriptionPath);
      case KAFKA -> kafka.topic();
      case SYNTHETIC -> "synthetic";
    };
  }

  private static boolean streamingEngine(ConsumerOptions options) {
    return options.as(DataflowPipelineOptions.class).isEnableStreamingEngine()
        || ExperimentalOptions.hasExperiment(options, "enable_streaming_engine");
  }
}
