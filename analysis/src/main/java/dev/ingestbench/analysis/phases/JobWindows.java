package dev.ingestbench.analysis.phases;

import dev.ingestbench.analysis.model.Bucket;
import java.util.ArrayList;
import java.util.List;

/**
 * Automatic phases of a per-minute timeline. Job windows are runs of minutes with rows, separated by
 * at least one empty minute (a job switch). Inside each window:
 *
 * <ol>
 *   <li>ramp-up: leading minutes below {@link #EDGE} of the minute after them (a job starting within a
 *       minute writes part of it), and drain: trailing minutes below {@link #EDGE} of the one before;
 *   <li>the minutes between are split into levels at the change points {@link ChangePoints} finds (a
 *       job joining or leaving, a throttle beginning or ending): one level is {@code W1 steady},
 *       several are {@code W1 steady 1}, {@code W1 steady 2}, ...
 * </ol>
 *
 * <p>Edges are judged against their neighbour, not against the window's typical level, so a job that
 * runs alone at half the rate before another joins is a level of its own, not a ramp-up.
 */
public final class JobWindows {
  /** An edge minute below this share of its neighbour is a partial minute: ramp-up or drain. */
  public static final double EDGE = 0.8;

  private JobWindows() {}

  public static List<Phase> detect(dev.ingestbench.analysis.model.Timeline perMinute) {
    List<Bucket> buckets = perMinute.buckets();
    List<Phase> phases = new ArrayList<>();
    int window = 0;
    int i = 0;
    while (i < buckets.size()) {
      if (buckets.get(i).rows() == 0) {
        i++;
        continue;
      }
      int from = i;
      while (i < buckets.size() && buckets.get(i).rows() > 0) {
        i++;
      }
      window++;
      split("W" + window, buckets, from, i, phases);
    }
    return phases;
  }

  private static void split(String window, List<Bucket> buckets, int from, int to, List<Phase> phases) {
    int a = from;
    while (a + 1 < to && buckets.get(a).rows() < EDGE * buckets.get(a + 1).rows()) {
      a++;
    }
    int b = to;
    while (b - 1 > a && buckets.get(b - 1).rows() < EDGE * buckets.get(b - 2).rows()) {
      b--;
    }
    add(phases, window + " ramp-up", buckets, from, a);
    double[] levels = new double[b - a];
    for (int k = a; k < b; k++) {
      levels[k - a] = buckets.get(k).rows();
    }
    List<Integer> cuts = new ArrayList<>();
    for (int c : ChangePoints.detect(levels)) {
      cuts.add(a + c);
    }
    cuts.add(b);
    int start = a;
    for (int k = 0; k < cuts.size(); k++) {
      add(phases, cuts.size() == 1 ? window + " steady" : window + " steady " + (k + 1), buckets, start, cuts.get(k));
      start = cuts.get(k);
    }
    add(phases, window + " drain", buckets, b, to);
  }

  private static void add(List<Phase> phases, String name, List<Bucket> buckets, int from, int to) {
    if (to > from) {
      phases.add(new Phase(name, from, to, buckets.get(from).start(),
          buckets.get(to - 1).start().plusSeconds(buckets.get(to - 1).seconds())));
    }
  }
}
