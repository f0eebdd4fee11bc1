package dev.ingestbench.analysis.phases;

import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.model.Timeline;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits a timeline into ramp-up, steady state and drain by a documented rule
 * (docs/methodology.md):
 *
 * <ol>
 *   <li>The active window runs from the first to the last bucket with rows written.
 *   <li>The capacity level is the 90th percentile of the rates in the active window after a centred
 *       moving average of {@code smoothing} buckets (default 3), so single bursts or stalls do not
 *       set it.
 *   <li>The steady state runs from the first to the last bucket whose own rate reaches {@code
 *       threshold} (default 80%) of that level. Before it is ramp-up, after it drain.
 * </ol>
 *
 * <p>The percentile (not the maximum) keeps one burst from setting the bar; judging the edges on
 * the buckets' own rates keeps smoothing from trimming real steady seconds; the first-to-last span
 * keeps short dips inside the steady state, where they belong in its variance.
 */
public final class SteadyStateDetector {
  public static final double DEFAULT_THRESHOLD = 0.8;
  public static final int DEFAULT_SMOOTHING = 3;

  private final double threshold;
  private final int smoothing;

  public SteadyStateDetector() {
    this(DEFAULT_THRESHOLD, DEFAULT_SMOOTHING);
  }

  public SteadyStateDetector(double threshold, int smoothing) {
    if (threshold <= 0 || threshold > 1) {
      throw new IllegalArgumentException("threshold " + threshold + " must be in (0, 1]");
    }
    if (smoothing < 1) {
      throw new IllegalArgumentException("smoothing " + smoothing + " must be 1 or more");
    }
    this.threshold = threshold;
    this.smoothing = smoothing;
  }

  /** The phases of {@code timeline}, in order; empty phases are left out. */
  public List<Phase> detect(Timeline timeline) {
    List<Bucket> buckets = timeline.buckets();
    int first = 0;
    while (first < buckets.size() && buckets.get(first).rows() == 0) {
      first++;
    }
    int last = buckets.size() - 1;
    while (last >= first && buckets.get(last).rows() == 0) {
      last--;
    }
    List<Phase> phases = new ArrayList<>();
    if (first > last) {
      return phases;
    }
    double[] smoothed = smooth(buckets, first, last);
    double level = percentile(smoothed, 0.9);
    int steadyFrom = -1;
    int steadyTo = -1;
    for (int i = 0; i < smoothed.length; i++) {
      if (buckets.get(first + i).rowsPerSecond() >= threshold * level) {
        if (steadyFrom < 0) {
          steadyFrom = i;
        }
        steadyTo = i;
      }
    }
    int from = first + steadyFrom;
    int to = first + steadyTo + 1;
    add(phases, "ramp-up", buckets, first, from);
    add(phases, "steady", buckets, from, to);
    add(phases, "drain", buckets, to, last + 1);
    return phases;
  }

  private double[] smooth(List<Bucket> buckets, int first, int last) {
    int n = last - first + 1;
    double[] out = new double[n];
    int half = smoothing / 2;
    for (int i = 0; i < n; i++) {
      int lo = Math.max(0, i - half);
      int hi = Math.min(n - 1, i + half);
      double sum = 0;
      for (int j = lo; j <= hi; j++) {
        sum += buckets.get(first + j).rowsPerSecond();
      }
      out[i] = sum / (hi - lo + 1);
    }
    return out;
  }

  private static double percentile(double[] values, double p) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int index = (int) Math.ceil(p * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  private static void add(List<Phase> phases, String name, List<Bucket> buckets, int from, int to) {
    if (to <= from) {
      return;
    }
    Bucket end = buckets.get(to - 1);
    phases.add(
        new Phase(
            name, from, to, buckets.get(from).start(), end.start().plusSeconds(end.seconds())));
  }
}
