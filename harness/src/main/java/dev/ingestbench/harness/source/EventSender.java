package dev.ingestbench.harness.source;

import dev.ingestbench.pubsub.PublishOutcomes;
import java.io.IOException;

/**
 * Sends one event message to a source's topic with its client, without waiting for the reply:
 * {@link PacedPublisher} paces the sends, the sender only knows its client (the Pub/Sub client, or
 * a Kafka producer). Each message carries its event index and the time it was sent, as every
 * publisher of the project sends them.
 */
public interface EventSender extends AutoCloseable {
  /** Opens a sender to one topic: each publisher of a run has its own. */
  @FunctionalInterface
  interface Opener {
    EventSender open() throws IOException;
  }

  /**
   * Hands message {@code index} to the client; its reply goes to {@code outcome}, once. May block
   * while the client's queue is full (the send is then late, which the schedule shows).
   */
  void send(long index, byte[] payload, long sentAtMillis, PublishOutcomes outcome);

  /** Sends whatever the client still batches. */
  void flush();

  /** Shuts the client down (after {@link #flush}). */
  @Override
  void close() throws Exception;
}
