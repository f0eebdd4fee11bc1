package dev.ingestbench.analysis.phases;

import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.model.Timeline;
import java.util.ArrayList;
import java.util.List;

/**
 * Automatic phases of a per-minute timeline: job windows are runs of minutes with rows, separated by
 * at least one empty minute (a job switch); inside each window {@link SteadyStateDetector} marks
 * ramp-up, steady state and drain. Phases are named {@code W1 steady}, {@code W2 ramp-up}, ...
 */
public final class JobWindows {
  private JobWindows() {}

  public static List<Phase> detect(Timeline perMinute) {
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
      Timeline slice = Timeline.ofBuckets(buckets.subList(from, i), perMinute.bucketSeconds());
      for (Phase p : new SteadyStateDetector(SteadyStateDetector.DEFAULT_THRESHOLD, 1).detect(slice)) {
        phases.add(new Phase("W" + window + " " + p.name(), from + p.fromIndex(), from + p.toIndex(), p.start(), p.end()));
      }
    }
    return phases;
  }
}
