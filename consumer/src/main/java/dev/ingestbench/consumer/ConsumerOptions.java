package dev.ingestbench.consumer;

import dev.ingestbench.pubsub.PubsubAdmin;
import dev.ingestbench.pubsub.PubsubConnectionOptions;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.StreamingOptions;

/**
 * Flags of the consumer pipeline.
 *
 * <p>Beam's own BigQuery flags pass straight through (they live on {@link BigQueryOptions}): {@code
 * --useStorageApiConnectionPool}, {@code --minConnectionPoolConnections}, {@code
 * --maxConnectionPoolConnections}, {@code --numStorageWriteApiStreams}, {@code
 * --storageWriteApiTriggeringFrequencySec}.
 */
public interface ConsumerOptions
    extends BigQueryOptions, StreamingOptions, PubsubConnectionOptions {
  /**
   * Default of {@code --maxMessageBytes}: 1 MB below the 10 MB append request, which also carries
   * the row's metadata columns, the writer schema and the request framing.
   */
  int MAX_MESSAGE_BYTES = 9_000_000;

  /** BigQuery's limit for one AppendRows request: no row can be larger. */
  int MAX_MESSAGE_BYTES_LIMIT = 10_000_000;

  @Description(
      "Where messages come from: pubsub (--subscription), kafka (--bootstrapServers, --kafkaTopic, --consumerGroup) or synthetic (generated in the pipeline, no broker).")
  @Default.String("pubsub")
  String getSource();

  void setSource(String value);

  @Description(
      "Subscription to read: a name (completed with --project) or projects/P/subscriptions/S.")
  String getSubscription();

  void setSubscription(String value);

  @Description(
      "How payloads are written: json (the taxi-ride JSON message) or avro (Avro binary of events' taxi_ride.avsc, ~88 bytes). With --source=synthetic it is also what the generator makes.")
  @Default.String("json")
  String getMessageFormat();

  void setMessageFormat(String value);

  @Description(
      "With --source=kafka: the brokers, HOST:PORT[,HOST:PORT...] (a Managed Service for Apache Kafka cluster's bootstrap address on GCP).")
  String getBootstrapServers();

  void setBootstrapServers(String value);

  @Description("With --source=kafka: the topic to read; every partition is read.")
  String getKafkaTopic();

  void setKafkaTopic(String value);

  @Description(
      "With --source=kafka: the consumer group (group.id). KafkaIO assigns partitions itself and commits the offsets it has finished with to this group; a job starting without its own checkpoint resumes from the group's committed offsets (from the earliest when it has none).")
  @Default.String("ingestbench")
  String getConsumerGroup();

  void setConsumerGroup(String value);

  @Description(
      "With --source=kafka: more Kafka consumer settings as KEY=VALUE pairs separated by ';', e.g. security.protocol=SASL_SSL;sasl.mechanism=OAUTHBEARER;... for Managed Service for Apache Kafka (see docs/dataflow.md).")
  @Default.String("")
  String getKafkaConsumerConfig();

  void setKafkaConsumerConfig(String value);

  @Description(
      "With --source=kafka: authenticate to Managed Service for Apache Kafka with the job's Google credentials (SASL_SSL, OAUTHBEARER, Google's GcpLoginCallbackHandler), as KafkaIO's withGCPApplicationDefaultCredentials().")
  @Default.Boolean(false)
  boolean getKafkaGcpAuth();

  void setKafkaGcpAuth(boolean value);

  @Description(
      "Table to write: PROJECT:DATASET.TABLE or DATASET.TABLE (completed with --project). Dead letters go to TABLE_dlq.")
  String getOutputTable();

  void setOutputTable(String value);

  @Description(
      "Row shape: json-column (message metadata plus the payload as a JSON column) or typed (payload fields as typed columns).")
  @Default.String("json-column")
  String getRowFormat();

  void setRowFormat(String value);

  @Description(
      "How rows reach BigQueryIO: tablerow (writeTableRows), beam-row (Beam Rows with a schema) or proto (generated protobuf classes, writeProtos). Same rows in BigQuery; proto costs the least CPU per row.")
  @Default.String("tablerow")
  String getRowEncoding();

  void setRowEncoding(String value);

  @Description(
      "exactly-once (Beam's STORAGE_WRITE_API; the default) or at-least-once (STORAGE_API_AT_LEAST_ONCE), in any of those spellings. Beam's --useStorageWriteApi / --useStorageWriteApiAtLeastOnce map onto it; when both are given they must agree.")
  String getWriteMethod();

  void setWriteMethod(String value);

  @Description(
      "Dynamic destinations: spread rows over N tables (TABLE_0..TABLE_N-1) by event index; 1 writes TABLE itself.")
  @Default.Integer(1)
  int getDestinationTables();

  void setDestinationTables(int value);

  @Description(
      "How rows spread over --destinationTables: uniform (the default), or zipf:S (table k gets a share proportional to 1/(k+1)^S: a few hot tables and a long tail; S above 0, at most 10).")
  @Default.String("uniform")
  String getTableSkew();

  void setTableSkew(String value);

  @Description(
      "When the destination tables are made: if-needed (Beam's CREATE_IF_NEEDED, as each table is first written; the default) or ahead (every table before the pipeline starts, then CREATE_NEVER).")
  @Default.String("if-needed")
  String getCreateTables();

  void setCreateTables(String value);

  @Description(
      "Messages larger than this many bytes go to the dead-letter table (stage size, with their first 65,536 bytes) instead of the write: a row must fit in one 10 MB Storage Write append together with its other columns and the request's framing. At most 10000000.")
  @Default.Integer(MAX_MESSAGE_BYTES)
  int getMaxMessageBytes();

  void setMaxMessageBytes(int value);

  @Description(
      "The round this run belongs to: written into its result file, so an analysis can tell a file of another round (a reused directory) from this round's. Rounds set it; leave it out otherwise.")
  String getRunId();

  void setRunId(String value);

  @Description(
      "Local runs into the BigQuery emulator inside this JVM: the publisher wrote event indexes 0..N-1, so rows with other indexes are reported as foreign instead of counted as written. 0: not known.")
  @Default.Long(0)
  long getPublishedMessages();

  void setPublishedMessages(long value);

  @Description(
      "Local runs: once every expected message is accounted for, keep watching this many seconds before stopping, so duplicates that arrive late (a retried append, a replay after a restart) are counted too.")
  @Default.Integer(3)
  int getDuplicateGraceSeconds();

  void setDuplicateGraceSeconds(int value);

  @Description(
      "Fault injection for local runs: converting the N-th message throws, once per job and JVM, as a worker that fails mid-bundle; the runner restarts the job from its last checkpoint (Flink: --numberOfExecutionRetries). 0: never.")
  @Default.Long(0)
  long getFailAtMessage();

  void setFailAtMessage(long value);

  @Description("With --source=synthetic: how many messages to generate.")
  @Default.Long(100_000)
  long getSyntheticMessages();

  void setSyntheticMessages(long value);

  @Description(
      "With --source=synthetic: size of each generated message in bytes (padded; an Avro event is ~88 bytes unpadded).")
  @Default.Integer(500)
  int getMessageSizeBytes();

  void setMessageSizeBytes(int value);

  @Description(
      "With --source=synthetic: generator seed (the publisher's --seed gives the same events).")
  @Default.Long(1)
  long getSeed();

  void setSeed(long value);

  @Description(
      "With --sink=in-process and a Pub/Sub or Kafka source: the seed the events were published with (the publisher's --seed); the emulator in this JVM then checks every row's content against it, as the emulator process's --content-seed does. Unset: not checked (a synthetic source is always checked, against --seed).")
  Long getContentSeed();

  void setContentSeed(Long value);

  @Description(
      "Pub/Sub only: the attribute Beam's read de-duplicates on (PubsubIO withIdAttribute). Empty, the default: the Pub/Sub message id, so a redelivered message is read once and a second message that reuses an event index is written and counted (a duplicate row, and a mismatched one when its content differs). event_index: Beam drops such a second message inside the read, where nothing counts it (docs/dead-letters.md).")
  @Default.String("")
  String getPubsubIdAttribute();

  void setPubsubIdAttribute(String value);

  @Description(
      "Local emulator only: messages asked for per Pull. Real Pub/Sub caps a Pull at 1000; the emulator answers each Pull in ~50-160 ms whatever its size, so bigger pulls read faster.")
  @Default.Integer(5_000)
  int getEmulatorPullBatchSize();

  void setEmulatorPullBatchSize(int value);

  @Description(
      "Where rows go: local (a BigQuery emulator inside this JVM; also in-process), emulator (a running `ingestbench bigquery-emulator`, shared by every job: give --storageWriteEndpoint and --bigQueryEndpoint), bigquery (the real service) or auto (bigquery on Dataflow, emulator with --storageWriteEndpoint, else local).")
  @Default.String("auto")
  String getSink();

  void setSink(String value);

  @Description(
      "With --sink=emulator: the emulator's Storage Write API address, HOST:PORT (plaintext gRPC). Its tables REST API goes in Beam's --bigQueryEndpoint.")
  String getStorageWriteEndpoint();

  void setStorageWriteEndpoint(String value);

  @Description(
      "Check at launch that the BigQuery dataset exists (needs BigQuery access where the job is launched); false skips the check.")
  @Default.Boolean(true)
  boolean getValidateOutputTable();

  void setValidateOutputTable(boolean value);

  @Description(
      "Local runs: directory for the write timeline, samples and verification results. Empty writes nothing.")
  @Default.String("")
  String getLocalOutputDir();

  void setLocalOutputDir(String value);

  @Description(
      "Local runs: stop once this many distinct messages are written or dead-lettered; 0 runs until --timeoutSeconds (or the synthetic source ends).")
  @Default.Long(0)
  long getExpectedMessages();

  void setExpectedMessages(long value);

  @Description(
      "Local runs: print a machine-readable progress line once a second (how a round follows its consumers).")
  @Default.Boolean(false)
  boolean getProgressLines();

  void setProgressLines(boolean value);

  @Description(
      "Local runs with --expectedMessages: once the pipeline has read every expected message and"
          + " nothing was written for this many seconds, stop and verify at once (what is missing is"
          + " lost) instead of waiting for --timeoutSeconds; 0 never. Above the triggering frequency"
          + " and the Pub/Sub emulator's ack deadline ("
          + PubsubAdmin.EMULATOR_ACK_DEADLINE_SECONDS
          + " s), so that a redelivery or a commit still due is waited for.")
  @Default.Long(ConsumerOptions.DEFAULT_QUIET_PERIOD_SECONDS)
  long getQuietPeriodSeconds();

  void setQuietPeriodSeconds(long value);

  /** Three ack deadlines of the emulator: a redelivered message has long been read again. */
  long DEFAULT_QUIET_PERIOD_SECONDS = 30;

  @Description("Local runs: stop after this many seconds even if not everything arrived.")
  @Default.Long(600)
  long getTimeoutSeconds();

  void setTimeoutSeconds(long value);

  @Description(
      "Local runs: stop (and write the results) when standard input closes, as a scenario stops a job at the end of a stage.")
  @Default.Boolean(false)
  boolean getStopOnStdinEof();

  void setStopOnStdinEof(boolean value);

  @Description(
      "Local runs: stop (and write what it has) as soon as the process that started this one has exited,"
          + " even by SIGKILL; a round sets it for its consumers, so none is left running after a crashed round.")
  @Default.Boolean(false)
  boolean getStopWhenParentExits();

  void setStopWhenParentExits(boolean value);

  @Description(
      "Local runs with --stopOnStdinEof: how closing standard input (a stage stopping the job) ends the"
          + " pipeline, unless the line written before it names another mode: drain (stop reading, write what"
          + " was read, as Dataflow's drain does), savepoint (Flink's stop-with-savepoint: stop reading and"
          + " save the job's state under --stateBackendStoragePath/savepoints, for a restart with"
          + " --savepointPath) or cancel (at once; exactly-once loses rows appended and not yet flushed, as"
          + " Dataflow's cancel does). A signal, a timeout or a complete run always cancels.")
  @Default.String("drain")
  String getStopWith();

  void setStopWith(String value);
}
