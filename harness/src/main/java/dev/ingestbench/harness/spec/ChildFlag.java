package dev.ingestbench.harness.spec;

/**
 * The flags a run gives its publishers and consumers that are not a job's settings (those are
 * {@link SettingFlag}s): where a child reads and writes, how it runs, how long, what it tells the
 * run. Each name is declared once here; {@link ConsumerSpec}, {@link ChildFlags} and the Dataflow
 * launches render them from it (a Flex Template's parameter is the flag's {@link #flagName}).
 * ChildFlagTest checks that each is an option the consumer, the publisher or their Beam runners
 * read.
 */
public enum ChildFlag {
  // Both children.
  PROJECT("project"),
  RUN_ID("runId"),
  PUBSUB_EMULATOR_HOST("pubsubEmulatorHost"),
  BOOTSTRAP_SERVERS("bootstrapServers"),
  KAFKA_TOPIC("kafkaTopic"),
  /** The consumer's: where it writes; the publisher's: Pub/Sub or Kafka. */
  SINK("sink"),
  SEED("seed"),

  // The consumer's pipeline, as Beam runs it.
  RUNNER("runner"),
  JOB_NAME("jobName"),
  FLINK_MASTER("flinkMaster"),
  PARALLELISM("parallelism"),
  FILES_TO_STAGE("filesToStage"),
  STATE_BACKEND("stateBackend"),
  STATE_BACKEND_STORAGE_PATH("stateBackendStoragePath"),
  SAVEPOINT_PATH("savepointPath"),
  ENABLE_STREAMING_ENGINE("enableStreamingEngine"),

  // The consumer's source, sink and run.
  SOURCE("source"),
  SUBSCRIPTION("subscription"),
  CONSUMER_GROUP("consumerGroup"),
  SYNTHETIC_MESSAGES("syntheticMessages"),
  OUTPUT_TABLE("outputTable"),
  STORAGE_WRITE_ENDPOINT("storageWriteEndpoint"),
  BIG_QUERY_ENDPOINT("bigQueryEndpoint"),
  CONTENT_SEED("contentSeed"),
  PUBLISHED_MESSAGES("publishedMessages"),
  EXPECTED_MESSAGES("expectedMessages"),
  TIMEOUT_SECONDS("timeoutSeconds"),
  PROGRESS_LINES("progressLines"),
  LOCAL_OUTPUT_DIR("localOutputDir"),
  STOP_WHEN_PARENT_EXITS("stopWhenParentExits"),
  STOP_ON_STDIN_EOF("stopOnStdinEof"),

  // The publisher's.
  TOPIC("topic"),
  CREATE_SUBSCRIPTIONS("createSubscriptions"),
  FIRST_EVENT_INDEX("firstEventIndex"),
  NUM_MESSAGES("numMessages"),
  PUBLISHER_SHARDS("publisherShards"),
  RESULT_FILE("resultFile");

  private final String name;

  ChildFlag(String name) {
    this.name = name;
  }

  /** The flag with {@code value}: {@code --runId=r-1}. */
  public String is(Object value) {
    return "--" + name + "=" + value;
  }

  /** The flag's name, as a Flex Template parameter names it: {@code outputTable}. */
  public String flagName() {
    return name;
  }

  /** {@code arg}'s value when it is this flag ({@code --runner=X}: X), else null. */
  public String valueIn(String arg) {
    String prefix = "--" + name + "=";
    return arg.startsWith(prefix) ? arg.substring(prefix.length()) : null;
  }
}
