package dev.ingestbench.bigquery;

import dev.ingestbench.contracts.WindowLatency;
import java.util.TreeMap;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntCountsHistogram;

/**
 * One job's latency by second of intended send time ({@link IntendedTimes}): visible − intended,
 * and visible − Pub/Sub publish time of the same rows, so any window of the schedule (a probe of
 * the max-rate search, a step of a rate profile) can be read while the run goes on. A message
 * counts once, when its first copy becomes visible.
 */
final class WindowLatencies {
  private static final long MAX_LATENCY_MS = 3_600_000L;

  /** The messages meant to be sent in one second: ~8 KB each at 2 significant digits. */
  private static final class Second {
    final AbstractHistogram intended = new IntCountsHistogram(MAX_LATENCY_MS, 2);
    final AbstractHistogram published = new IntCountsHistogram(MAX_LATENCY_MS, 2);
  }

  private final TreeMap<Long, Second> bySecond = new TreeMap<>();

  /** Every second's together, kept as they come: the status asks for them once a second. */
  private final Second all = new Second();

  /** The second rows last fell in: consecutive rows mostly share it (no lookup, no boxing). */
  private long cachedSecond = Long.MIN_VALUE;

  private Second cached;

  /**
   * @param publishMicros Pub/Sub's publish time, or -1 when the row has none
   */
  void record(long intendedMicros, long publishMicros, long visibleMillis) {
    long second = Math.floorDiv(intendedMicros, 1_000_000L);
    if (second != cachedSecond) {
      cached = bySecond.computeIfAbsent(second, k -> new Second());
      cachedSecond = second;
    }
    Second s = cached;
    long intended = clamp(visibleMillis - intendedMicros / 1000);
    s.intended.recordValue(intended);
    all.intended.recordValue(intended);
    if (publishMicros >= 0) {
      long published = clamp(visibleMillis - publishMicros / 1000);
      s.published.recordValue(published);
      all.published.recordValue(published);
    }
  }

  /** Visible − intended send time of every message with a schedule; null when none. */
  WindowLatency.Percentiles allIntended() {
    return percentiles(all.intended);
  }

  /**
   * The rows meant to be sent in [{@code fromMs}, {@code toMs}), whole seconds; none in an empty
   * window.
   *
   * @throws IllegalArgumentException a window that ends before it begins
   */
  WindowLatency window(long fromMs, long toMs) {
    if (toMs < fromMs) {
      throw new IllegalArgumentException(
          "to_ms=" + toMs + " is before from_ms=" + fromMs + ": a window ends after it begins");
    }
    if (toMs == fromMs) {
      return new WindowLatency(fromMs, toMs, null, null);
    }
    Histogram intended = new Histogram(MAX_LATENCY_MS, 2);
    Histogram published = new Histogram(MAX_LATENCY_MS, 2);
    for (Second s :
        bySecond
            .subMap(Math.floorDiv(fromMs, 1000L), true, Math.floorDiv(toMs - 1, 1000L), true)
            .values()) {
      intended.add(s.intended);
      published.add(s.published);
    }
    return new WindowLatency(fromMs, toMs, percentiles(intended), percentiles(published));
  }

  private static long clamp(long ms) {
    return Math.max(0, Math.min(ms, MAX_LATENCY_MS));
  }

  private static WindowLatency.Percentiles percentiles(AbstractHistogram h) {
    if (h.getTotalCount() == 0) {
      return null;
    }
    return new WindowLatency.Percentiles(
        h.getTotalCount(),
        h.getValueAtPercentile(50),
        h.getValueAtPercentile(90),
        h.getValueAtPercentile(99),
        h.getValueAtPercentile(99.9),
        h.getMaxValue());
  }
}
