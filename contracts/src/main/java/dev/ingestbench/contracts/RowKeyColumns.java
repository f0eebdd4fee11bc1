package dev.ingestbench.contracts;

/**
 * The columns the local BigQuery reads out of every row it receives to verify a run: the consumer
 * writes them, the BigQuery emulator scans for them by name.
 */
public final class RowKeyColumns {
  /** The generator's sequence number of the event: distinct per message, so duplicates show. */
  public static final String EVENT_INDEX = "event_index";

  /** When the message was published, in microseconds: the start of end-to-end latency. */
  public static final String PUBLISH_TIME = "publish_time";

  /**
   * The source's id of the message (Pub/Sub's message id, Kafka's partition and offset): the same
   * event index under two ids is an event the source carried twice, under one id a row the sink
   * wrote twice.
   */
  public static final String MESSAGE_ID = "message_id";

  /** In dead-letter tables: why the message could not be written. */
  public static final String ERROR = "error";

  private RowKeyColumns() {}
}
