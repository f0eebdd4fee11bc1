package dev.ingestbench.harness.spec;

/**
 * A setting a run passes to a child process, with its two names: the child's Beam flag ({@code
 * --writeMethod=}, what consumers and publishers parse, and a Dataflow template's parameter) and
 * {@code ingestbench round}'s flag that sets it ({@code --write-method}). Declared once here: the
 * renderers write the child's flag from it, a round's flags are written with the round's name, and
 * an error a child's own check raises about a setting the round gave is told in the round's words.
 */
public enum SettingFlag {
  WRITE_METHOD("writeMethod", "--write-method"),
  ROW_FORMAT("rowFormat", "--row-format"),
  ROW_ENCODING("rowEncoding", "--row-encoding"),
  DESTINATION_TABLES("destinationTables", "--destination-tables"),
  TABLE_SKEW("tableSkew", "--table-skew"),
  CREATE_TABLES("createTables", "--create-tables"),
  CONNECTION_POOL("useStorageApiConnectionPool", "--connection-pool"),
  MAX_POOL_CONNECTIONS("maxConnectionPoolConnections", "--max-connection-pool-connections"),
  STREAMS("numStorageWriteApiStreams", "--streams"),
  TRIGGERING_FREQUENCY("storageWriteApiTriggeringFrequencySec", "--triggering-frequency"),
  MESSAGE_FORMAT("messageFormat", "--message-format"),
  MESSAGE_SIZE("messageSizeBytes", "--message-size"),
  PULL_BATCH_SIZE("emulatorPullBatchSize", "--pull-batch-size"),
  LIVE_RATE("ratePerSecond", "--live-rate");

  private final String child;
  private final String round;

  SettingFlag(String child, String round) {
    this.child = child;
    this.round = round;
  }

  /** The child's flag with {@code value}: {@code --writeMethod=exactly-once}. */
  public String child(Object value) {
    return "--" + child + "=" + value;
  }

  /** The child's flag name, as a Flex Template parameter names it: {@code writeMethod}. */
  public String childName() {
    return child;
  }

  /** {@code ingestbench round}'s flag: {@code --write-method}. */
  public String round() {
    return round;
  }

  /**
   * {@code message} with this setting's child flag written as the round's ({@code
   * --writeMethod=at-least-once} as {@code --write-method at-least-once}; a switch, {@code
   * --useStorageApiConnectionPool=true}, as {@code --connection-pool}).
   */
  public String inRoundWords(String message) {
    return message
        .replace(child(true), round)
        .replace("--" + child + "=", round + " ")
        .replace("--" + child, round);
  }

  /** Whether {@code arg} sets this setting on the child directly ({@code --consumer-arg}). */
  public boolean setBy(String arg) {
    return arg.startsWith("--" + child + "=") || arg.equals("--" + child);
  }
}
