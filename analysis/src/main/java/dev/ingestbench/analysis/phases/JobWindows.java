package dev.ingestbench.analysis.phases;

import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.model.Timeline;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Automatic phases of a per-minute timeline. Job windows are runs of minutes with rows, separated
 * by at least one empty minute (a job switch). Inside each window:
 *
 * <ol>
 *   <li>ramp-up: leading minutes below {@link #EDGE} of the minute after them (a job starting
 *       within a minute writes part of it), and drain: trailing minutes below {@link #EDGE} of the
 *       one before;
 *   <li>the minutes between are split into levels at the change points {@link ChangePoints} finds
 *       (a job joining or leaving, a throttle beginning or ending): one level is {@code W1 steady},
 *       several are {@code W1 steady 1}, {@code W1 steady 2}, ...;
 *   <li>with the regional quota known, a level above {@value #BURST_SHARE} of it next to one below
 *       {@value #THROTTLED_SHARE} of it is a {@code burst}, and that low level {@code throttled}:
 *       the quota's sawtooth, not writers joining and leaving.
 * </ol>
 *
 * <p>Edges are judged against their neighbour, not against the window's typical level, so a job
 * that runs alone at half the rate before another joins is a level of its own, not a ramp-up.
 */
public final class JobWindows {
  /** An edge minute below this share of its neighbour is a partial minute: ramp-up or drain. */
  public static final double EDGE = 0.8;

  /**
   * A level above 80% of the quota next to one below half of it is labelled a burst (names and
   * charts only: the throttling verdict, {@code QuotaSawtooth}, needs minutes above the quota
   * itself).
   */
  public static final double BURST_SHARE = 0.8;

  public static final double THROTTLED_SHARE = 0.5;

  /** A steady level this short or shorter may be a transient around one odd minute. */
  public static final int TRANSIENT_MINUTES = 3;

  private JobWindows() {}

  /** Without a quota: levels are never called bursts or throttled. */
  public static List<Phase> detect(Timeline perMinute) {
    return detect(perMinute, Double.POSITIVE_INFINITY);
  }

  public static List<Phase> detect(Timeline perMinute, double quotaMbPerSecond) {
    List<Bucket> buckets = perMinute.buckets();
    List<Phase> phases = new ArrayList<>();
    int window = 0;
    int i = 0;
    while (i < buckets.size()) {
      if (buckets.get(i).rows() <= 0) {
        i++;
        continue;
      }
      int from = i;
      while (i < buckets.size() && buckets.get(i).rows() > 0) {
        i++;
      }
      window++;
      split("W" + window, buckets, from, i, quotaMbPerSecond, phases);
    }
    return phases;
  }

  private static void split(
      String window, List<Bucket> buckets, int from, int to, double quota, List<Phase> phases) {
    int a = from;
    while (a + 1 < to && buckets.get(a).rows() < EDGE * buckets.get(a + 1).rows()) {
      a++;
    }
    int b = to;
    while (b - 1 > a && buckets.get(b - 1).rows() < EDGE * buckets.get(b - 2).rows()) {
      b--;
    }
    double[] rows = new double[b - a];
    for (int k = a; k < b; k++) {
      rows[k - a] = buckets.get(k).rows();
    }
    List<Integer> cuts = new ArrayList<>();
    for (int c : ChangePoints.detect(rows)) {
      cuts.add(a + c);
    }
    cuts.add(b);
    List<int[]> levels = new ArrayList<>();
    int start = a;
    for (int cut : cuts) {
      levels.add(new int[] {start, cut});
      start = cut;
    }
    List<String> kindList = kinds(buckets, levels, quota);
    absorbTransients(buckets, levels, kindList);
    String[] kinds = kindList.toArray(new String[0]);
    add(phases, window + " ramp-up", buckets, from, a);
    Map<String, Integer> counts = new HashMap<>();
    for (String kind : kinds) {
      counts.merge(kind, 1, Integer::sum);
    }
    Map<String, Integer> seen = new HashMap<>();
    for (int k = 0; k < kinds.length; k++) {
      int n = seen.merge(kinds[k], 1, Integer::sum);
      String name =
          counts.get(kinds[k]) == 1 ? window + " " + kinds[k] : window + " " + kinds[k] + " " + n;
      add(phases, name, buckets, levels.get(k)[0], levels.get(k)[1]);
    }
    add(phases, window + " drain", buckets, b, to);
  }

  /** Each level's kind: a burst or throttled level at the quota's sawtooth, else steady. */
  private static List<String> kinds(List<Bucket> buckets, List<int[]> levels, double quota) {
    List<String> kinds = new ArrayList<>();
    for (int k = 0; k < levels.size(); k++) {
      double mb = mbPerSecond(buckets, levels.get(k));
      boolean lowNext =
          k + 1 < levels.size()
              && mbPerSecond(buckets, levels.get(k + 1)) < THROTTLED_SHARE * quota;
      boolean lowBefore =
          k > 0 && mbPerSecond(buckets, levels.get(k - 1)) < THROTTLED_SHARE * quota;
      boolean highNext =
          k + 1 < levels.size() && mbPerSecond(buckets, levels.get(k + 1)) > BURST_SHARE * quota;
      boolean highBefore = k > 0 && mbPerSecond(buckets, levels.get(k - 1)) > BURST_SHARE * quota;
      kinds.add(
          mb > BURST_SHARE * quota && (lowNext || lowBefore)
              ? "burst"
              : mb < THROTTLED_SHARE * quota && (highNext || highBefore) ? "throttled" : "steady");
    }
    return kinds;
  }

  /**
   * One odd minute is not a level, though the change-point method, whose shortest segment is two
   * minutes, makes it one: a dip of 30% in one minute of a flat hour would read as a job leaving
   * and rejoining. A steady level of at most {@link #TRANSIENT_MINUTES} minutes between two steady
   * levels that agree (within {@link ChangePoints#MIN_CHANGE}) is a transient when all its minutes
   * but one also agree with them: the three become one level (the odd minute stays in its
   * statistics and widens its interval). Two or three minutes that all moved are a real excursion
   * and stay a level; bursts and throttled levels are short by nature and are left alone. The
   * report lists transients among the level changes it found.
   */
  private static void absorbTransients(
      List<Bucket> buckets, List<int[]> levels, List<String> kinds) {
    for (int k = 1; k + 1 < levels.size(); k++) {
      int[] level = levels.get(k);
      int[] before = levels.get(k - 1);
      int[] after = levels.get(k + 1);
      if (level[1] - level[0] > TRANSIENT_MINUTES
          || !(kinds.get(k - 1).equals("steady")
              && kinds.get(k).equals("steady")
              && kinds.get(k + 1).equals("steady"))) {
        continue;
      }
      double flank = (rowsPerMinute(buckets, before) + rowsPerMinute(buckets, after)) / 2;
      if (!agree(rowsPerMinute(buckets, before), rowsPerMinute(buckets, after))
          || oddMinutes(buckets, level, flank) > 1) {
        continue;
      }
      levels.set(k - 1, new int[] {before[0], after[1]});
      levels.remove(k + 1);
      levels.remove(k);
      kinds.remove(k + 1);
      kinds.remove(k);
      k--;
    }
  }

  /**
   * Minutes of {@code range} not within {@link ChangePoints#MIN_CHANGE} of {@code level} rows/min.
   */
  static int oddMinutes(List<Bucket> buckets, int[] range, double level) {
    int odd = 0;
    for (int i = range[0]; i < range[1]; i++) {
      if (!agree(buckets.get(i).rows(), level)) {
        odd++;
      }
    }
    return odd;
  }

  /** Two levels (rows per minute) within {@link ChangePoints#MIN_CHANGE} of each other. */
  public static boolean agree(double a, double b) {
    return a > 0 && b > 0 && Math.abs(Math.log(a / b)) < Math.log(1 + ChangePoints.MIN_CHANGE);
  }

  private static double rowsPerMinute(List<Bucket> buckets, int[] range) {
    double rows = 0;
    for (int i = range[0]; i < range[1]; i++) {
      rows += buckets.get(i).rows();
    }
    return rows / (range[1] - range[0]);
  }

  private static double mbPerSecond(List<Bucket> buckets, int[] range) {
    double bytes = 0;
    double seconds = 0;
    for (int i = range[0]; i < range[1]; i++) {
      bytes += buckets.get(i).bytes();
      seconds += buckets.get(i).seconds();
    }
    return bytes / 1e6 / seconds;
  }

  private static void add(List<Phase> phases, String name, List<Bucket> buckets, int from, int to) {
    if (to > from) {
      phases.add(
          new Phase(
              name,
              from,
              to,
              buckets.get(from).start(),
              buckets.get(to - 1).start().plusSeconds(buckets.get(to - 1).seconds())));
    }
  }
}
