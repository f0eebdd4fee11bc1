package dev.ingestbench.bigquery;

/**
 * The regional append-throughput quota, modelled on what a 3-job round saw on real BigQuery:
 * appends go through at full speed while the window's budget lasts (bursts well above the quota),
 * then every append is slowed to a trickle until the window ends and the budget refills (the
 * sawtooth). No append is refused: the writer only sees slower responses. {@code
 * docs/bigquery-emulator.md} says which published observation each parameter reproduces.
 *
 * <p>A window starts with the first append after the previous one ended, and its budget is the
 * quota times the window. Bytes let through beyond the budget (the trickle, and appends held until
 * the refill) are charged to the next window, so over any run the bytes written stay within the
 * quota times the elapsed time plus one budget.
 *
 * <p>The quotas that refuse instead of slowing ({@code --quota-mode reject} and {@code two-tier})
 * are {@link QuotaTiers}.
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
    if (!started) {
      started = true;
      windowEnd = nowNanos + windowNanos;
      trickleFreeAt = nowNanos;
    } else if (nowNanos - windowEnd >= 0) {
      // The budget refills once per window passed; bytes let through beyond it (the trickle,
      // appends held until a refill) stay charged, so over time the average cannot pass the quota.
      long windows = 1 + (nowNanos - windowEnd) / windowNanos;
      used = Math.max(0, used - windows * budgetBytes);
      // Without debt, a new window starts with this append; with debt, the windows keep their pace.
      windowEnd = used == 0 ? nowNanos + windowNanos : windowEnd + windows * windowNanos;
      trickleFreeAt = nowNanos;
    }
    used += bytes;
    if (used <= budgetBytes) {
      return 0;
    }
    // The window whose budget pays for this append: 1 = the next one, 2 = the one after, ...
    long windowsAhead = (long) Math.ceil(used / budgetBytes) - 1;
    long refill = windowEnd + (windowsAhead - 1) * windowNanos;
    long release = refill;
    if (windowsAhead == 1) {
      // Paid by the next window: let it trickle through now, but never later than that refill.
      trickleFreeAt =
          Math.max(trickleFreeAt, nowNanos)
              + (long) (bytes / (bytesPerSecond * THROTTLED_FRACTION) * 1e9);
      release = Math.min(trickleFreeAt, refill);
    }
    long delay = Math.max(0, release - nowNanos);
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
