package dev.ingestbench.bigquery;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * One REST method's requests-per-second quota (tables.get, tables.insert): a bucket of a second's
 * requests that refills continuously, and the calls and refusals it counted.
 */
final class MethodQuota {
  private final double perSecond;
  private double tokens;
  private long lastNanos;
  final AtomicLong calls = new AtomicLong();
  final AtomicLong throttled = new AtomicLong();

  /** Wall-clock epoch ms of the first and the last call, answered or refused; 0: none yet. */
  final AtomicLong firstCallMs = new AtomicLong();

  final AtomicLong lastCallMs = new AtomicLong();

  /** How long each call took to answer, arrival to answer (refusals included), microseconds. */
  private final Histogram answers = new Histogram(TimeUnit.MINUTES.toMicros(10), 2);

  /**
   * @param perSecond requests a second; 0: no limit
   */
  MethodQuota(double perSecond, long nowNanos) {
    this.perSecond = perSecond;
    this.tokens = perSecond;
    this.lastNanos = nowNanos;
  }

  /** Counts a call; false when the quota refuses it. */
  boolean admit(long nowNanos) {
    calls.incrementAndGet();
    long wall = System.currentTimeMillis();
    // The last first: a status read between the two never has a first call without a last.
    lastCallMs.accumulateAndGet(wall, Math::max);
    firstCallMs.compareAndSet(0, wall);
    if (perSecond <= 0) {
      return true;
    }
    synchronized (this) {
      // Two threads may read the clock in one order and lock in the other: never refill backwards.
      long now = Math.max(nowNanos, lastNanos);
      tokens = Math.min(perSecond, tokens + (now - lastNanos) / 1e9 * perSecond);
      lastNanos = now;
      if (tokens >= 1) {
        tokens -= 1;
        return true;
      }
    }
    throttled.incrementAndGet();
    return false;
  }

  /** A call answered {@code nanos} after it arrived. */
  synchronized void answered(long nanos) {
    answers.recordValue(Math.min(answers.getHighestTrackableValue(), Math.max(0, nanos / 1_000)));
  }

  /** The answers' {@code percentile}, milliseconds; null without calls. */
  synchronized Double answerMs(double percentile) {
    return answers.getTotalCount() == 0 ? null : answers.getValueAtPercentile(percentile) / 1_000.0;
  }
}
