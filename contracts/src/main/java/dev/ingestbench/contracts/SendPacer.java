package dev.ingestbench.contracts;

import java.util.concurrent.locks.LockSupport;

/**
 * Sends one range of event indexes on a schedule: from {@link #start}, message {@code i} is due
 * {@code (i - firstIndex) / rate} seconds later. A message is sent when it is due or, when the
 * sender is late, at once: the sender never skips ahead and never waits for a reply, so its own
 * delays count as latency against the intended send time ({@link SendSchedule}) instead of lowering
 * the rate unseen.
 */
public final class SendPacer {
  private static final long MAX_PARK_NANOS = 50_000_000L;

  private final long firstIndex;
  private final double messagesPerSecond;
  private long startNanos;

  public SendPacer(long firstIndex, double messagesPerSecond) {
    if (!(messagesPerSecond > 0)) {
      throw new IllegalArgumentException("a paced rate is above 0, not " + messagesPerSecond);
    }
    this.firstIndex = firstIndex;
    this.messagesPerSecond = messagesPerSecond;
  }

  /**
   * Starts the schedule now: the first message is due at once. Its step, for the local BigQuery.
   */
  public SendSchedule start() {
    startNanos = System.nanoTime();
    return new SendSchedule(firstIndex, System.currentTimeMillis() * 1000, messagesPerSecond);
  }

  /** Waits until message {@code index} is due; returns at once when it is already. */
  public void awaitTurn(long index) throws InterruptedException {
    long due = startNanos + Math.round((index - firstIndex) * 1e9 / messagesPerSecond);
    long wait;
    while ((wait = due - System.nanoTime()) > 0) {
      LockSupport.parkNanos(Math.min(wait, MAX_PARK_NANOS));
      if (Thread.interrupted()) {
        throw new InterruptedException();
      }
    }
  }
}
