package dev.ingestbench.analysis.diagnosis;

import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.model.Timeline;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The regional throughput quota's sawtooth in a timeline: bursts (buckets above the quota itself,
 * as the burst headroom allows) each followed by throttled buckets (below {@link #THROTTLED_SHARE}
 * of it, still writing). A burst must be more than twice a throttled bucket, so noise around a
 * steady rate never saws: ±30% around any level spans at most 1.86× (measured against the published
 * round 2, 440-580 MB/s bursts then tens of MB/s). For timelines without the server's own counters
 * only: where the BigQuery emulator counted its throttled appends, those decide. A cycle runs from
 * the start of one burst to the start of the next burst that came after throttled buckets; its
 * shape is what a person reads off the chart: how often, how high, how low, and what it averages
 * to.
 *
 * @param cycles whole cycles (burst, then throttled, up to the next burst)
 * @param periodSeconds mean cycle length
 * @param burstMbPerSecond mean of the burst buckets
 * @param throttledMbPerSecond mean of the throttled buckets
 * @param meanMbPerSecond mean over the whole cycles, every bucket in them
 * @param turns how often a burst bucket was followed directly by a throttled one
 */
public record QuotaSawtooth(
    int cycles,
    double periodSeconds,
    double burstMbPerSecond,
    double throttledMbPerSecond,
    double meanMbPerSecond,
    int turns) {
  /** A burst bucket is above the quota; 0.8 fired on ±30% noise around 65% of it. */
  public static final double BURST_SHARE = 1.0;

  public static final double THROTTLED_SHARE = 0.5;

  /** Fewer turns than this is a dip, not a sawtooth. */
  public static final int MIN_TURNS = 2;

  /** How often a burst bucket is followed directly by a throttled one that still wrote rows. */
  public static int turns(Timeline timeline, double quotaMbPerSecond) {
    List<Bucket> b = timeline.buckets();
    int count = 0;
    for (int i = 1; i < b.size(); i++) {
      if (b.get(i - 1).mbPerSecond() > BURST_SHARE * quotaMbPerSecond
          && b.get(i).mbPerSecond() < THROTTLED_SHARE * quotaMbPerSecond
          && b.get(i).rows() > 0) {
        count++;
      }
    }
    return count;
  }

  /**
   * The sawtooth of {@code timeline} against {@code quotaMbPerSecond}, if it saws at least twice.
   */
  public static Optional<QuotaSawtooth> find(Timeline timeline, double quotaMbPerSecond) {
    List<Bucket> b = timeline.buckets();
    List<Integer> cycleStarts = new ArrayList<>();
    boolean throttledSinceBurst = true;
    int turns = turns(timeline, quotaMbPerSecond);
    for (int i = 0; i < b.size(); i++) {
      double mb = b.get(i).mbPerSecond();
      boolean burst = mb > BURST_SHARE * quotaMbPerSecond;
      boolean throttled = b.get(i).rows() > 0 && mb < THROTTLED_SHARE * quotaMbPerSecond;
      if (burst && throttledSinceBurst) {
        cycleStarts.add(i);
        throttledSinceBurst = false;
      } else if (throttled && !cycleStarts.isEmpty()) {
        throttledSinceBurst = true;
      }
    }
    if (turns < MIN_TURNS || cycleStarts.size() < 2) {
      return Optional.empty();
    }
    int from = cycleStarts.get(0);
    int to = cycleStarts.get(cycleStarts.size() - 1);
    double burst = 0;
    int bursts = 0;
    double throttled = 0;
    int throttles = 0;
    double all = 0;
    for (int i = from; i < to; i++) {
      double mb = b.get(i).mbPerSecond();
      all += mb;
      if (mb > BURST_SHARE * quotaMbPerSecond) {
        burst += mb;
        bursts++;
      } else if (b.get(i).rows() > 0 && mb < THROTTLED_SHARE * quotaMbPerSecond) {
        throttled += mb;
        throttles++;
      }
    }
    int cycles = cycleStarts.size() - 1;
    return Optional.of(
        new QuotaSawtooth(
            cycles,
            (double) (to - from) * timeline.bucketSeconds() / cycles,
            bursts == 0 ? 0 : burst / bursts,
            throttles == 0 ? 0 : throttled / throttles,
            all / (to - from),
            turns));
  }
}
