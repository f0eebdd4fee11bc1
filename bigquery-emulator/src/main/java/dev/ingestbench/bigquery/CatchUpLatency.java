package dev.ingestbench.bigquery;

import dev.ingestbench.contracts.ConsumerResult;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntCountsHistogram;

/**
 * Publish-to-visible latency kept per second of publish time, so that after a run it can be split
 * at the moment the consumer had caught up: messages published before it waited behind a backlog
 * (or behind the consumer's start-up); messages published after it measure the pipeline itself.
 *
 * <p>The consumer has caught up at the first second {@code t}, not before its first visible row, by
 * which every message published before {@code t - LAG_SECONDS} was visible: the oldest message
 * still waiting is younger than {@code LAG_SECONDS}, what Pub/Sub's {@code
 * oldest_unacked_message_age} would show. {@code docs/methodology.md} explains the choice.
 */
final class CatchUpLatency {
  static final long LAG_SECONDS = ConsumerResult.CATCH_UP_LAG_SECONDS;

  private static final long MAX_LATENCY_MS = 3_600_000L;

  /** The messages published in one second. */
  private static final class PublishSecond {
    /** 2 significant digits keep one histogram at ~8 KB: an hour of seconds fits in 30 MB. */
    final AbstractHistogram latencies = new IntCountsHistogram(MAX_LATENCY_MS, 2);

    /** The latest second at which one of them became visible. */
    long lastVisibleSecond = Long.MIN_VALUE;
  }

  private final TreeMap<Long, PublishSecond> bySecond = new TreeMap<>();
  private long firstVisibleSecond = Long.MAX_VALUE;
  private long lastVisibleSecond = Long.MIN_VALUE;
  private long cachedSecond = Long.MIN_VALUE;
  private PublishSecond cached;

  void record(long publishMicros, long visibleMillis) {
    long second = Math.floorDiv(publishMicros, 1_000_000L);
    if (second != cachedSecond) {
      cached = bySecond.computeIfAbsent(second, s -> new PublishSecond());
      cachedSecond = second;
    }
    cached.latencies.recordValue(
        Math.max(0, Math.min(visibleMillis - publishMicros / 1000, MAX_LATENCY_MS)));
    long visibleSecond = Math.floorDiv(visibleMillis + 999, 1000L);
    cached.lastVisibleSecond = Math.max(cached.lastVisibleSecond, visibleSecond);
    firstVisibleSecond = Math.min(firstVisibleSecond, Math.floorDiv(visibleMillis, 1000L));
    lastVisibleSecond = Math.max(lastVisibleSecond, visibleSecond);
  }

  /** The catch-up second, or null when nothing was visible. */
  Long caughtUpSecond() {
    long waitingUntil =
        Long.MIN_VALUE; // when the messages published before t - LAG were all visible
    var published = bySecond.entrySet().iterator();
    Map.Entry<Long, PublishSecond> next = published.hasNext() ? published.next() : null;
    for (long t = firstVisibleSecond; t <= lastVisibleSecond; t++) {
      while (next != null && next.getKey() < t - LAG_SECONDS) {
        waitingUntil = Math.max(waitingUntil, next.getValue().lastVisibleSecond);
        next = published.hasNext() ? published.next() : null;
      }
      if (waitingUntil <= t) {
        return t;
      }
    }
    return null;
  }

  /** Latency of the messages published from {@code second} on; null when there were none. */
  ConsumerResult.Latency publishedFrom(Long second) {
    return second == null ? null : merged(bySecond.tailMap(second, true).values());
  }

  /** Latency of the messages published before {@code second} (all when null); null when none. */
  ConsumerResult.Latency publishedBefore(Long second) {
    return merged(second == null ? bySecond.values() : bySecond.headMap(second, false).values());
  }

  /** Latency of every message; null when none. */
  ConsumerResult.Latency all() {
    return merged(bySecond.values());
  }

  static String isoSecond(Long second) {
    return second == null ? null : Instant.ofEpochSecond(second).toString();
  }

  private static ConsumerResult.Latency merged(Collection<PublishSecond> seconds) {
    Histogram all = new Histogram(MAX_LATENCY_MS, 2);
    seconds.forEach(s -> all.add(s.latencies));
    return summary(all);
  }

  /** Percentiles of {@code h}; null when it holds nothing. */
  private static ConsumerResult.Latency summary(AbstractHistogram h) {
    if (h.getTotalCount() == 0) {
      return null;
    }
    return new ConsumerResult.Latency(
        h.getTotalCount(),
        h.getValueAtPercentile(50),
        h.getValueAtPercentile(90),
        h.getValueAtPercentile(99),
        h.getMaxValue());
  }
}
