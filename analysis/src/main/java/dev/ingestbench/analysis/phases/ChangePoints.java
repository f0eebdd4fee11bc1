package dev.ingestbench.analysis.phases;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Level shifts in a series (a job joins or leaves, a throttle begins or ends) by PELT, Pruned Exact
 * Linear Time (Killick, Fearnhead and Eckley, JASA 2012): the exact minimum of the sum of each
 * segment's squared deviations from its mean plus a penalty per change, found in about linear time.
 *
 * <p>Levels are compared on a log scale: the per-minute noise of a write timeline is proportional
 * to its level (sd 2-4% in the published tables), so on the log scale it is the same at 100k and
 * 200k rows/min, and a job joining (x2) is the same step at any level. Zero minutes become a small
 * floor ({@link #FLOOR_OF_MEDIAN} of the median) so a stop is a large step, not an infinity.
 *
 * <p>The penalty is {@code 4 sigma^2 ln n}: twice the Schwarz (BIC) criterion for a mean shift in
 * Gaussian noise. Plain BIC made 48 spurious cuts in 100 constant 30-minute levels with 4% noise
 * (the largest of n chi-square terms is about {@code 2 ln n} itself); twice it made 5, and a job
 * joining or leaving is still dozens of times over it. {@code sigma} is estimated from the series,
 * robustly: the median absolute first difference divided by {@code 0.6745 sqrt 2} (differences
 * cancel the level, so the shifts do not inflate it), and at least {@link #MIN_NOISE} (1%), so a
 * nearly noiseless series is not cut at every wobble.
 */
public final class ChangePoints {
  /** Noise on the log scale is never taken to be below this (1% of the level). */
  public static final double MIN_NOISE = 0.01;

  /** Shortest segment: one minute is not a level. */
  public static final int MIN_SEGMENT = 2;

  /** A zero minute counts as this share of the median level. */
  public static final double FLOOR_OF_MEDIAN = 1e-3;

  private ChangePoints() {}

  /**
   * The indices of {@code levels} (e.g. rows per minute) where a new segment begins (0 excluded),
   * ascending. Neighbouring segments whose mean levels differ by less than {@link #MIN_CHANGE} are
   * merged: a slow drift of a few percent is statistically a shift in quiet data, but no job joined
   * or left and no throttle began.
   */
  public static List<Integer> detect(double[] levels) {
    double[] y = logLevels(levels);
    return mergeSmall(y, detect(y, penalty(y)));
  }

  /** Levels closer than this (10%) are one level. */
  public static final double MIN_CHANGE = 0.10;

  private static List<Integer> mergeSmall(double[] y, List<Integer> changes) {
    List<Integer> cuts = new ArrayList<>(changes);
    while (!cuts.isEmpty()) {
      int smallest = -1;
      double smallestGap = Double.POSITIVE_INFINITY;
      for (int k = 0; k < cuts.size(); k++) {
        int from = k == 0 ? 0 : cuts.get(k - 1);
        int to = k + 1 < cuts.size() ? cuts.get(k + 1) : y.length;
        double gap = Math.abs(mean(y, from, cuts.get(k)) - mean(y, cuts.get(k), to));
        if (gap < smallestGap) {
          smallestGap = gap;
          smallest = k;
        }
      }
      if (smallestGap >= Math.log(1 + MIN_CHANGE)) {
        break;
      }
      cuts.remove(smallest);
    }
    return cuts;
  }

  private static double mean(double[] y, int from, int to) {
    double sum = 0;
    for (int i = from; i < to; i++) {
      sum += y[i];
    }
    return sum / (to - from);
  }

  /** {@code ln} of each level, zero and negative levels raised to the floor. */
  public static double[] logLevels(double[] levels) {
    double median = median(Arrays.stream(levels).filter(v -> v > 0).toArray());
    double floor = Math.max(median * FLOOR_OF_MEDIAN, Double.MIN_NORMAL);
    double[] y = new double[levels.length];
    for (int i = 0; i < levels.length; i++) {
      y[i] = Math.log(Math.max(levels[i], floor));
    }
    return y;
  }

  /** {@code 4 sigma^2 ln n} for the series {@code y} (already on the scale PELT compares). */
  public static double penalty(double[] y) {
    int n = y.length;
    if (n < 2) {
      return 0;
    }
    double sigma = noise(y);
    return 4 * sigma * sigma * Math.log(n);
  }

  /**
   * The per-minute noise of {@code y} (on the log scale: a share of the level), robustly: the
   * median absolute first difference over {@code 0.6745 sqrt 2}, at least {@link #MIN_NOISE}.
   */
  public static double noise(double[] y) {
    if (y.length < 2) {
      return MIN_NOISE;
    }
    double[] diffs = new double[y.length - 1];
    for (int i = 1; i < y.length; i++) {
      diffs[i - 1] = Math.abs(y[i] - y[i - 1]);
    }
    return Math.max(median(diffs) / (0.6745 * Math.sqrt(2)), MIN_NOISE);
  }

  /** PELT with a given penalty per change. */
  public static List<Integer> detect(double[] x, double penalty) {
    int n = x.length;
    if (n < 2 * MIN_SEGMENT || penalty <= 0) {
      return List.of();
    }
    double[] sum = new double[n + 1];
    double[] sumSq = new double[n + 1];
    for (int i = 0; i < n; i++) {
      sum[i + 1] = sum[i] + x[i];
      sumSq[i + 1] = sumSq[i] + x[i] * x[i];
    }
    double[] best = new double[n + 1];
    int[] last = new int[n + 1];
    best[0] = -penalty;
    List<Integer> candidates = new ArrayList<>();
    candidates.add(0);
    for (int t = MIN_SEGMENT; t <= n; t++) {
      double min = Double.POSITIVE_INFINITY;
      int arg = 0;
      double[] costs = new double[candidates.size()];
      for (int k = 0; k < candidates.size(); k++) {
        int s = candidates.get(k);
        if (t - s < MIN_SEGMENT) {
          costs[k] = Double.NaN;
          continue;
        }
        costs[k] = best[s] + cost(sum, sumSq, s, t) + penalty;
        if (costs[k] < min) {
          min = costs[k];
          arg = s;
        }
      }
      best[t] = min;
      last[t] = arg;
      // Pruning: a start that is already worse than the best by more than the penalty never wins
      // later.
      List<Integer> kept = new ArrayList<>();
      for (int k = 0; k < candidates.size(); k++) {
        if (Double.isNaN(costs[k]) || costs[k] - penalty <= min) {
          kept.add(candidates.get(k));
        }
      }
      kept.add(
          t); // F(t) is known now: t may start the next segment (eligible from t + MIN_SEGMENT)
      candidates = kept;
    }
    List<Integer> changes = new ArrayList<>();
    for (int t = last[n]; t > 0; t = last[t]) {
      changes.add(t);
    }
    Collections.reverse(changes);
    return changes;
  }

  /** Sum of squared deviations from the mean of x[s..t). */
  private static double cost(double[] sum, double[] sumSq, int s, int t) {
    double n = t - s;
    double total = sum[t] - sum[s];
    return Math.max(0, sumSq[t] - sumSq[s] - total * total / n);
  }

  private static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    int n = v.length;
    return n == 0 ? 0 : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
}
