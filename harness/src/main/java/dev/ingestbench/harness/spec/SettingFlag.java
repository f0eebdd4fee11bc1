package dev.ingestbench.harness.spec;

/**
 * A setting a run passes to a child process, with its two names: the child's Beam flag ({@code
 * --writeMethod=}, what consumers and publishers parse, and a Dataflow template's parameter) and
 * {@code ingestbench round}'s flag that sets it ({@code --write-method}). Declared once here: the
 * renderers write the child's flag from it, a round's flags are written with the round's name, and
 * an error a child's own check raises about a setting the round gave is told in the round's words.
 */
public enum SettingFlag {
  WRITE_METHOD("writeMethod", Round.WRITE_METHOD),
  ROW_FORMAT("rowFormat", Round.ROW_FORMAT),
  ROW_ENCODING("rowEncoding", Round.ROW_ENCODING),
  DESTINATION_TABLES("destinationTables", Round.DESTINATION_TABLES),
  TABLE_SKEW("tableSkew", Round.TABLE_SKEW),
  CREATE_TABLES("createTables", Round.CREATE_TABLES),
  CONNECTION_POOL("useStorageApiConnectionPool", Round.CONNECTION_POOL),
  MAX_POOL_CONNECTIONS("maxConnectionPoolConnections", Round.MAX_POOL_CONNECTIONS),
  STREAMS("numStorageWriteApiStreams", Round.STREAMS),
  TRIGGERING_FREQUENCY("storageWriteApiTriggeringFrequencySec", Round.TRIGGERING_FREQUENCY),
  MESSAGE_FORMAT("messageFormat", Round.MESSAGE_FORMAT),
  MESSAGE_SIZE("messageSizeBytes", Round.MESSAGE_SIZE),
  PULL_BATCH_SIZE("emulatorPullBatchSize", Round.PULL_BATCH_SIZE),
  LIVE_RATE("ratePerSecond", Round.LIVE_RATE);

  /**
   * {@code ingestbench round}'s flag names, as constants an annotation can name ({@code
   * RoundCommand}'s options are declared with them).
   */
  public static final class Round {
    private Round() {}

    public static final String WRITE_METHOD = "--write-method";
    public static final String ROW_FORMAT = "--row-format";
    public static final String ROW_ENCODING = "--row-encoding";
    public static final String DESTINATION_TABLES = "--destination-tables";
    public static final String TABLE_SKEW = "--table-skew";
    public static final String CREATE_TABLES = "--create-tables";
    public static final String CONNECTION_POOL = "--connection-pool";
    public static final String MAX_POOL_CONNECTIONS = "--max-connection-pool-connections";
    public static final String STREAMS = "--streams";
    public static final String TRIGGERING_FREQUENCY = "--triggering-frequency";
    public static final String MESSAGE_FORMAT = "--message-format";
    public static final String MESSAGE_SIZE = "--message-size";
    public static final String PULL_BATCH_SIZE = "--pull-batch-size";
    public static final String LIVE_RATE = "--live-rate";
  }

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
