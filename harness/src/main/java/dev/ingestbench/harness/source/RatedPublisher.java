package dev.ingestbench.harness.source;

import dev.ingestbench.contracts.PublisherResult;
import java.time.Duration;
import java.time.Instant;

/**
 * A publisher sent at a rate it is told, and told again: what the max-rate search drives ({@link
 * PacedPublisher} in a round; a simulated one in the search's tests).
 */
public interface RatedPublisher extends AutoCloseable {
  /** Sends at {@code messagesPerSecond} from the next message on (0: as fast as it can). */
  void rate(double messagesPerSecond);

  /** Sends nothing until the next {@link #rate}. */
  void pause();

  /** Messages the source has acknowledged so far. */
  long acknowledged();

  /** Messages handed to the client so far. */
  long handed();

  /** Why publishing failed, or null. */
  Exception failure();

  /** Stops sending and waits (at most {@code max}) for every reply. */
  void stop(Duration max) throws InterruptedException;

  /** What it published since {@code started}, as {@code publisher_live.json} records it. */
  PublisherResult result(String topic, int messageSize, double rate, Instant started, String runId);
}
