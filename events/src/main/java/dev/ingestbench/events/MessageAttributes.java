package dev.ingestbench.events;

/** Names of the Pub/Sub attributes every ingestbench message carries, shared by both pipelines. */
public final class MessageAttributes {
  /**
   * The event's index in the run (0..numMessages-1): what verification counts and de-duplicates on.
   */
  public static final String EVENT_INDEX = "event_index";

  /** The publisher's clock when the message was handed to the client, epoch millis. */
  public static final String PUBLISHED_AT_MS = "published_at_ms";

  private MessageAttributes() {}
}
