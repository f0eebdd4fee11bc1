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
 * <p>{@code reject} mode models the short-term quota instead: "all append operations are rejected
 * while a quota is being refilled" (apache/beam#31837, where the short-term quota takes up to ~10 s
 * to refill). An append the window's budget cannot pay is refused with RESOURCE_EXHAUSTED, nothing
 * is charged for it, and the budget refills in full when the window ends.
 */
final class ThroughputQuota {
  /** While throttled, bytes are admitted at this fraction of the quota ("tens of MB/s" of 314). */
  static final double THROTTLED_FRACTION = 0.1;

  /** What {@link #admit} returns for an append refused in reject mode. */
  static final long REFUSE = -1;

  private final double bytesPerSecond;
  private final boolean reject;
  private long rejectedAppends;
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
    this(megabytesPerSecond, windowSeconds, false);
  }

  /**
   * @param reject refuse what the budget cannot pay until it refills, instead of slowing it
   */
  ThroughputQuota(double megabytesPerSecond, double windowSeconds, boolean reject) {
    this.reject = reject;
    this.bytesPerSecond = megabytesPerSecond * 1e6;
    this.windowNanos = (long) (windowSeconds * 1e9);
    this.budgetBytes = bytesPerSecond * windowSeconds;
  }

  /**
   * Admits an append of {@code bytes}; returns how long to hold it back first, in nanoseconds, or
   * {@link #REFUSE} in reject mode when the window's budget is spent.
   */
  synchronized long admit(long bytes, long nowNanos) {
    if (bytesPerSecond <= 0) {
      return 0;
    }
    if (reject) {
      return admitOrRefuse(bytes, nowNanos);
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

  private long admitOrRefuse(long bytes, long nowNanos) {
    if (!started || nowNanos - windowEnd >= 0) {
      started = true;
      windowEnd = nowNanos + windowNanos;
      used = 0;
    }
    if (used + bytes > budgetBytes && used > 0) {
      rejectedAppends++;
      return REFUSE;
    }
    used += bytes; // one append larger than a whole budget still passes once the budget is full
    return 0;
  }

  /** Seconds until the budget refills (reject mode), for the refusal's message. */
  synchronized double secondsToRefill(long nowNanos) {
    return Math.max(0, (windowEnd - nowNanos) / 1e9);
  }

  synchronized long rejectedAppends() {
    return rejectedAppends;
  }

  synchronized long throttledAppends() {
    return throttledAppends;
  }

  synchronized double throttledSeconds() {
    return throttledNanos / 1e9;
  }
}
