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
 * A job's (or every job's) samples of a scenario as a gap-free timeline of the samples' interval (a
 * second locally, the poll interval on Dataflow), so the steady-state rule and the statistics of a
 * round apply to it unchanged.
 */
final class JobSeconds {
  private JobSeconds() {}

  /**
   * The intervals of {@link #width} seconds from {@code from} up to {@code to} of {@code job}'s
   * samples (every job's summed when {@code job} is null); an interval without a sample is a zero.
   * Only whole intervals count: a stage's last, partly covered interval is left out.
   */
  static Timeline of(List<ScenarioSample> samples, String job, long from, long to) {
    int width = width(samples);
    Map<Long, long[]> sums = new TreeMap<>();
    for (ScenarioSample s : samples) {
      if ((job == null || s.job().equals(job)) && s.epochSecond() >= from && s.epochSecond() < to) {
        long[] sum = sums.computeIfAbsent((s.epochSecond() - from) / width, k -> new long[2]);
        sum[0] += s.rows();
        sum[1] += s.bytes();
      }
    }
    List<Bucket> buckets = new ArrayList<>();
    for (long k = 0; from + (k + 1) * width <= to; k++) {
      long[] sum = sums.getOrDefault(k, new long[2]);
      buckets.add(new Bucket(Instant.ofEpochSecond(from + k * width), width, sum[0], sum[1], 0, 0));
    }
    return Timeline.ofBuckets(buckets, width);
  }

  /** The samples' interval in seconds: 1 locally, the poll interval on Dataflow. */
  static int width(List<ScenarioSample> samples) {
    return samples.stream().mapToInt(ScenarioSample::seconds).max().orElse(1);
  }
}
