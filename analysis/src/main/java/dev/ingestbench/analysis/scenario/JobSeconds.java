package dev.ingestbench.analysis.scenario;

import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.model.Timeline;
import dev.ingestbench.contracts.ScenarioSample;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A job's (or every job's) per-second samples of a scenario as a gap-free per-second timeline, so
 * the steady-state rule and the statistics of a round apply to it unchanged.
 */
final class JobSeconds {
  private JobSeconds() {}

  /**
   * The seconds {@code [from, to)} of {@code job}'s samples (every job's summed when {@code job} is
   * null); a second without a sample is a zero.
   */
  static Timeline of(List<ScenarioSample> samples, String job, long from, long to) {
    Map<Long, long[]> sums = new TreeMap<>();
    for (ScenarioSample s : samples) {
      if ((job == null || s.job().equals(job)) && s.epochSecond() >= from && s.epochSecond() < to) {
        long[] sum = sums.computeIfAbsent(s.epochSecond(), k -> new long[2]);
        sum[0] += s.rows();
        sum[1] += s.bytes();
      }
    }
    List<Bucket> buckets = new ArrayList<>();
    for (long t = from; t < to; t++) {
      long[] sum = sums.getOrDefault(t, new long[2]);
      buckets.add(new Bucket(Instant.ofEpochSecond(t), 1, sum[0], sum[1], 0, 0));
    }
    return Timeline.ofBuckets(buckets, 1);
  }
}
