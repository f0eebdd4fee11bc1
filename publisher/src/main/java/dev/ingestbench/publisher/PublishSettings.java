package dev.ingestbench.publisher;

import dev.ingestbench.contracts.RateProfile;
import dev.ingestbench.events.MessageFormat;
import dev.ingestbench.pubsub.PubsubPaths;
import java.io.Serializable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The load parameters of one publishing run as one typed, validated value, so each worker gets the
 * same settings and a bad flag fails at launch, not on a worker.
 *
 * @param topicPath the Pub/Sub topic; null with {@code --sink=kafka}
 * @param kafka the Kafka topic and producer settings; null with {@code --sink=pubsub}
 * @param sendScheduleUrl the local BigQuery's REST root that each shard's schedule goes to; null:
 *     none
 * @param rateProfile steps of {@code ratePerSecond} (1x) each shard goes through; null: one rate
 */
public record PublishSettings(
    String emulatorHost,
    @Nullable String topicPath,
    long firstEventIndex,
    long numMessages,
    int messageSizeBytes,
    long seed,
    double ratePerSecond,
    int shards,
    long batchMaxMessages,
    long batchMaxBytes,
    long batchDelayMs,
    long maxOutstandingMessages,
    long maxOutstandingBytes,
    PublisherOptions.FlowControlBehavior flowControlBehavior,
    MessageFormat messageFormat,
    @Nullable KafkaTarget kafka,
    @Nullable String sendScheduleUrl,
    @Nullable RateProfile rateProfile)
    implements Serializable {

  /** Service limits of one Publish request. */
  static final long SERVICE_MAX_BATCH_MESSAGES = 1_000;

  static final long SERVICE_MAX_BATCH_BYTES = 10_000_000;

  /**
   * The emulator's gRPC server keeps gRPC's default 4 MiB request limit (pstest offers no way to
   * raise it), so batches bound for an emulator stay below it with room for attributes and framing.
   */
  static final long EMULATOR_MAX_BATCH_BYTES = 3_500_000;

  /** Validates the flags once, naming the flag, the value and the fix. */
  public static PublishSettings from(PublisherOptions options) {
    String sink = options.getSink() == null ? "auto" : options.getSink().trim();
    if (sink.equals("auto")) {
      sink =
          options.getKafkaTopic() != null && !options.getKafkaTopic().isBlank()
              ? "kafka"
              : "pubsub";
    }
    if (!sink.equals("pubsub") && !sink.equals("kafka")) {
      throw new IllegalArgumentException(
          "--sink=" + options.getSink() + " is not known; use pubsub, kafka or auto");
    }
    KafkaTarget kafka = sink.equals("kafka") ? KafkaTarget.from(options) : null;
    if (kafka != null && options.getTopic() != null && !options.getTopic().isBlank()) {
      throw new IllegalArgumentException(
          "--topic is the Pub/Sub topic; with --sink=kafka give --kafkaTopic instead");
    }
    if (kafka != null && !options.getCreateSubscriptions().isBlank()) {
      throw new IllegalArgumentException(
          "--createSubscriptions is for Pub/Sub; with --sink=kafka, --kafkaPartitions=N creates the topic");
    }
    if (kafka == null && (options.getTopic() == null || options.getTopic().isBlank())) {
      throw new IllegalArgumentException(
          "--topic=TOPIC is required with --sink=pubsub (the default)");
    }
    String topic =
        kafka != null
            ? null
            : PubsubPaths.topic(options.getProject(), "--topic", options.getTopic());
    MessageFormat format = MessageFormat.fromFlag("--messageFormat", options.getMessageFormat());
    require(
        options.getFirstEventIndex() >= 0,
        "--firstEventIndex",
        options.getFirstEventIndex(),
        "use 0 or more");
    require(
        options.getNumMessages() >= 0, "--numMessages", options.getNumMessages(), "use 0 or more");
    require(
        options.getMessageSizeBytes() > 0 && options.getMessageSizeBytes() <= 10_000_000,
        "--messageSizeBytes",
        options.getMessageSizeBytes(),
        "use 1..10000000 (Pub/Sub's 10 MB message limit)");
    require(
        options.getRatePerSecond() >= 0,
        "--ratePerSecond",
        options.getRatePerSecond(),
        "use 0 (unthrottled) or a positive rate");
    require(
        options.getPublisherShards() >= 0,
        "--publisherShards",
        options.getPublisherShards(),
        "use 0 (one per core) or more");
    require(
        options.getBatchMaxMessages() >= 1
            && options.getBatchMaxMessages() <= SERVICE_MAX_BATCH_MESSAGES,
        "--batchMaxMessages",
        options.getBatchMaxMessages(),
        "use 1..1000, the service's limit per Publish request");
    require(
        options.getBatchMaxBytes() >= 1 && options.getBatchMaxBytes() <= SERVICE_MAX_BATCH_BYTES,
        "--batchMaxBytes",
        options.getBatchMaxBytes(),
        "use 1..10000000, the service's 10 MB limit per Publish request");
    require(
        options.getBatchDelayMs() >= 1,
        "--batchDelayMs",
        options.getBatchDelayMs(),
        "use 1 ms or more");
    require(
        options.getMaxOutstandingMessages() >= options.getBatchMaxMessages(),
        "--maxOutstandingMessages",
        options.getMaxOutstandingMessages(),
        "allow at least one full batch (--batchMaxMessages=" + options.getBatchMaxMessages() + ")");
    require(
        options.getMaxOutstandingBytes() >= options.getMessageSizeBytes(),
        "--maxOutstandingBytes",
        options.getMaxOutstandingBytes(),
        "allow at least one message (--messageSizeBytes=" + options.getMessageSizeBytes() + ")");
    String scheduleUrl =
        options.getSendScheduleUrl() == null || options.getSendScheduleUrl().isBlank()
            ? null
            : options.getSendScheduleUrl().strip();
    require(
        scheduleUrl == null
            || (scheduleUrl.startsWith("http://") && options.getRatePerSecond() > 0),
        "--sendScheduleUrl",
        scheduleUrl,
        "give the local BigQuery's REST root (http://HOST:PORT), with a --ratePerSecond above 0");
    RateProfile profile =
        options.getRateProfile() == null || options.getRateProfile().isBlank()
            ? null
            : RateProfile.parse("--rateProfile", options.getRateProfile());
    if (profile != null) {
      require(
          options.getRatePerSecond() > 0,
          "--rateProfile",
          options.getRateProfile(),
          "give the 1x rate with --ratePerSecond");
      require(
          options.getNumMessages() == profile.messages(options.getRatePerSecond()),
          "--numMessages",
          options.getNumMessages(),
          "the profile at --ratePerSecond="
              + options.getRatePerSecond()
              + " sends "
              + profile.messages(options.getRatePerSecond())
              + " messages: give --numMessages="
              + profile.messages(options.getRatePerSecond()));
    }
    int shards =
        options.getPublisherShards() > 0
            ? options.getPublisherShards()
            : Runtime.getRuntime().availableProcessors();
    boolean emulator =
        options.getPubsubEmulatorHost() != null && !options.getPubsubEmulatorHost().isBlank();
    long batchBytes = options.getBatchMaxBytes();
    if (emulator && batchBytes > EMULATOR_MAX_BATCH_BYTES) {
      batchBytes = EMULATOR_MAX_BATCH_BYTES; // PublisherPipeline.run says so
    }
    return new PublishSettings(
        options.getPubsubEmulatorHost(),
        topic,
        options.getFirstEventIndex(),
        options.getNumMessages(),
        options.getMessageSizeBytes(),
        options.getSeed(),
        options.getRatePerSecond(),
        (int) Math.max(1, Math.min(shards, Math.max(1, options.getNumMessages()))),
        options.getBatchMaxMessages(),
        batchBytes,
        options.getBatchDelayMs(),
        options.getMaxOutstandingMessages(),
        options.getMaxOutstandingBytes(),
        options.getFlowControlBehavior(),
        format,
        kafka,
        scheduleUrl,
        profile);
  }

  /** The topic as results name it: the Pub/Sub path, or {@code kafka:TOPIC}. */
  public String destination() {
    return kafka != null ? "kafka:" + kafka.topic() : topicPath;
  }

  /** Each shard's share of the target rate; 0 when unthrottled. */
  double ratePerShard() {
    return ratePerSecond / shards;
  }

  private static void require(boolean ok, String flag, Object value, String fix) {
    if (!ok) {
      throw new IllegalArgumentException(flag + "=" + value + " is invalid: " + fix);
    }
  }
}
