package dev.ingestbench.bigquery;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * CreateWriteStream's cost as its call rate grows: each call over the last second beyond the
 * threshold makes the next call take longer ({@link ApiLimits#createWriteStreamSlowdownMs}), as
 * BigQuery's guidance describes (above 40-50 calls a second, latency "grows substantially (>25s)").
 * A model with the guidance's numbers, not a measurement of the service.
 */
final class CreateStreamSlowdown {
  private static final long SECOND = 1_000_000_000L;
  private final ApiLimits limits;
  private final ArrayDeque<Long> lastSecond = new ArrayDeque<>();
  final AtomicLong slowed = new AtomicLong();

  CreateStreamSlowdown(ApiLimits limits) {
    this.limits = limits;
  }

  /** Records a call at {@code nowNanos}; returns how long to hold it, in nanoseconds. */
  long delayNanos(long nowNanos) {
    if (limits.createWriteStreamPerSecond() <= 0 || limits.createWriteStreamSlowdownMs() <= 0) {
      return 0;
    }
    int rate;
    synchronized (lastSecond) {
      // Calls may lock in another order than they read the clock: keep the deque in order.
      long now = lastSecond.isEmpty() ? nowNanos : Math.max(nowNanos, lastSecond.peekLast());
      while (!lastSecond.isEmpty() && now - lastSecond.peekFirst() >= SECOND) {
        lastSecond.pollFirst();
      }
      lastSecond.addLast(now);
      rate = lastSecond.size();
    }
    double excess = rate - limits.createWriteStreamPerSecond();
    if (excess <= 0) {
      return 0;
    }
    slowed.incrementAndGet();
    double ms = Math.min(ApiLimits.MAX_SLOWDOWN_MS, excess * limits.createWriteStreamSlowdownMs());
    return (long) (ms * 1e6);
  }
}
