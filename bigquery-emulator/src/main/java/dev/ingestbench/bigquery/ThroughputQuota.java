package dev.ingestbench.bigquery;

/**
 * The regional append-throughput quota, modelled on what a 3-job round saw on real BigQuery: appends
 * go through at full speed while the window's budget lasts (bursts well above the quota), then every
 * append is slowed to a trickle until the window ends and the budget refills (the sawtooth). No
 * append is refused: the writer only sees slower responses. {@code docs/bigquery-emulator.md} says
 * which published observation each parameter reproduces.
 *
 * <p>A window starts with the first append after the previous one ended, and its budget is the
 * quota times the window: over a whole window the average never exceeds the quota.
 */
final class ThroughputQuota {
  /** While throttled, bytes are admitted at this fraction of the quota ("tens of MB/s" of 314). */
  static final double THROTTLED_FRACTION = 0.1;

  private final double bytesPerSecond;
  private final long windowNanos;
  private final double budgetBytes;
  private boolean started;
  private long windowEnd;
  private double used;
  private long trickleFreeAt;
  private long throttledAppends;
  private long throttledNanos;

  /**
   * @param megabytesPerSecond the quota in MB/s (10^6 bytes); 0 or less disables it
   * @param windowSeconds how long a budget lasts before it refills
   */
  ThroughputQuota(double megabytesPerSecond, double windowSeconds) {
    this.bytesPerSecond = megabytesPerSecond * 1e6;
    this.windowNanos = (long) (windowSeconds * 1e9);
    this.budgetBytes = bytesPerSecond * windowSeconds;
  }

  /** Admits an append of {@code bytes}; returns how long to hold it back first, in nanoseconds. */
  synchronized long admit(long bytes, long nowNanos) {
    if (bytesPerSecond <= 0) {
      return 0;
    }
    if (!started || nowNanos - windowEnd >= 0) {
      started = true;
      windowEnd = nowNanos + windowNanos;
      used = 0;
      trickleFreeAt = nowNanos;
    }
    if (used + bytes <= budgetBytes) {
      used += bytes;
      return 0;
    }
    long start = Math.max(trickleFreeAt, nowNanos);
    trickleFreeAt = start + (long) (bytes / (bytesPerSecond * THROTTLED_FRACTION) * 1e9);
    // The budget refills at the window's end: nothing waits beyond it.
    long delay = Math.min(trickleFreeAt, windowEnd) - nowNanos;
    throttledAppends++;
    throttledNanos += delay;
    return delay;
  }

  synchronized long throttledAppends() {
    return throttledAppends;
  }

  synchronized double throttledSeconds() {
    return throttledNanos / 1e9;
  }
}
