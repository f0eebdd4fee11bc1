package dev.ingestbench.publisher;

import dev.ingestbench.pubsub.PubsubConnectionOptions;
import org.apache.beam.sdk.extensions.gcp.options.GcpOptions;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;

/**
 * Flags of the publisher pipeline: where to (Pub/Sub or Kafka), what (events, format, size, rate),
 * and each official client's own batching and flow-control knobs.
 */
public interface PublisherOptions extends GcpOptions, PubsubConnectionOptions {

  // "auto" because the consumer's --sink, registered in the same JVM by the CLI, defaults to it and
  // Beam requires one default per flag name.
  @Description(
      "Where to publish: pubsub (--topic), kafka (--bootstrapServers, --kafkaTopic) or auto (kafka when --kafkaTopic is given, else pubsub).")
  @Default.String("auto")
  String getSink();

  void setSink(String value);

  @Description(
      "Pub/Sub topic to publish to: a name (completed with --project) or projects/P/topics/T. Required with --sink=pubsub.")
  String getTopic();

  void setTopic(String value);

  @Description(
      "Comma-separated subscriptions to create on the topic before publishing (idempotent), e.g."
          + " sub-a,sub-b. Empty creates none.")
  @Default.String("")
  String getCreateSubscriptions();

  void setCreateSubscriptions(String value);

  @Description("How many events to publish.")
  @Default.Long(100_000)
  long getNumMessages();

  void setNumMessages(long value);

  @Description(
      "Index of the first event: runs that publish to one topic in parts use disjoint ranges.")
  @Default.Long(0)
  long getFirstEventIndex();

  void setFirstEventIndex(long value);

  @Description(
      "How events are written: json or avro (Avro binary of events' taxi_ride.avsc, ~88 bytes unpadded).")
  @Default.String("json")
  String getMessageFormat();

  void setMessageFormat(String value);

  @Description("With --sink=kafka: the brokers, HOST:PORT[,HOST:PORT...].")
  String getBootstrapServers();

  void setBootstrapServers(String value);

  @Description("With --sink=kafka: the topic to publish to.")
  String getKafkaTopic();

  void setKafkaTopic(String value);

  @Description(
      "With --sink=kafka: create the topic with this many partitions if it does not exist (replication 1); 0 requires it to exist.")
  @Default.Integer(0)
  int getKafkaPartitions();

  void setKafkaPartitions(int value);

  @Description("Kafka producer batching: linger.ms, how long a batch waits for more records.")
  @Default.Integer(5)
  int getLingerMs();

  void setLingerMs(int value);

  @Description("Kafka producer batching: batch.size, the most bytes of one partition's batch.")
  @Default.Integer(65_536)
  int getBatchSize();

  void setBatchSize(int value);

  @Description("Kafka producer: compression.type, one of none, gzip, snappy, lz4, zstd.")
  @Default.String("none")
  String getCompressionType();

  void setCompressionType(String value);

  @Description(
      "Kafka producer: acks, 0, 1 or all (all with the idempotent producer: no duplicates from retries).")
  @Default.String("all")
  String getAcks();

  void setAcks(String value);

  @Description(
      "With --sink=kafka: more producer settings as KEY=VALUE pairs separated by ';' (e.g. SASL for Managed Service for Apache Kafka).")
  @Default.String("")
  String getKafkaProducerConfig();

  void setKafkaProducerConfig(String value);

  @Description(
      "With --sink=kafka: authenticate to Managed Service for Apache Kafka with Google credentials (SASL_SSL, OAUTHBEARER, Google's GcpLoginCallbackHandler).")
  @Default.Boolean(false)
  boolean getKafkaGcpAuth();

  void setKafkaGcpAuth(boolean value);

  @Description(
      "Size of each message in bytes; larger sizes pad a _padding field (e.g. 10000). An Avro event is ~88 bytes unpadded.")
  @Default.Integer(500)
  int getMessageSizeBytes();

  void setMessageSizeBytes(int value);

  @Description("Seed of the event generator: the same seed publishes the same bytes.")
  @Default.Long(1)
  long getSeed();

  void setSeed(long value);

  @Description(
      "Target publish rate for the whole job in messages/s; 0 publishes as fast as possible.")
  @Default.Double(0)
  double getRatePerSecond();

  void setRatePerSecond(double value);

  @Description(
      "Local runs with --ratePerSecond: the local BigQuery's REST root (http://127.0.0.1:PORT). Each"
          + " shard tells it when it means to send each message, and it measures every row's latency"
          + " against that intended send time as well as against the publish time.")
  String getSendScheduleUrl();

  void setSendScheduleUrl(String value);

  @Description(
      "Steps of --ratePerSecond (1x) over the run, e.g. 1x:60s,2x:60s,4x:30s,1x:60s; --numMessages"
          + " must be what the profile sends.")
  String getRateProfile();

  void setRateProfile(String value);

  @Description(
      "How many parallel publishing shards split the run (each with its own client and an equal"
          + " share of the rate). 0 picks the number of local cores.")
  @Default.Integer(0)
  int getPublisherShards();

  void setPublisherShards(int value);

  @Description(
      "Client batching: publish a batch once it holds this many messages (service max 1000).")
  @Default.Long(1000)
  long getBatchMaxMessages();

  void setBatchMaxMessages(long value);

  @Description(
      "Client batching: publish a batch once it holds this many bytes (service max 10 MB).")
  @Default.Long(9_500_000)
  long getBatchMaxBytes();

  void setBatchMaxBytes(long value);

  @Description(
      "Client batching: publish a batch at the latest this many milliseconds after its first message.")
  @Default.Long(10)
  long getBatchDelayMs();

  void setBatchDelayMs(long value);

  @Description("Client flow control: most messages outstanding (published, not yet acknowledged).")
  @Default.Long(10_000)
  long getMaxOutstandingMessages();

  void setMaxOutstandingMessages(long value);

  @Description("Client flow control: most bytes outstanding.")
  @Default.Long(100_000_000)
  long getMaxOutstandingBytes();

  void setMaxOutstandingBytes(long value);

  @Description("What the client does when flow-control limits are reached: block or fail.")
  @Default.Enum("BLOCK")
  FlowControlBehavior getFlowControlBehavior();

  void setFlowControlBehavior(FlowControlBehavior value);

  @Description(
      "The round this run belongs to: written into its result file, so an analysis can tell a file of another round (a reused directory) from this round's. Rounds set it; leave it out otherwise.")
  String getRunId();

  void setRunId(String value);

  @Description(
      "Optional JSON file to write the run's result to (published, failures, seconds, rate).")
  @Default.String("")
  String getResultFile();

  void setResultFile(String value);

  /** The client's two useful behaviours at its flow-control limit. */
  enum FlowControlBehavior {
    BLOCK,
    FAIL
  }
}
