package dev.ingestbench.analysis.source;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One job's CPU per minute ({@code analyze --cpu}, one file per job) with the vCPUs it ran on, so
 * that each job is judged against its own capacity: two jobs of 24 vCPUs each at 80% are not one
 * job at 160% of 24.
 *
 * @param job the job, named by its file
 * @param vcpus the vCPUs it ran on
 * @param vcpuSeconds vCPU-seconds it used per minute
 */
public record JobCpu(String job, int vcpus, Map<Instant, Double> vcpuSeconds) {

  /** A minute may show a little more than its vCPUs (sampling edges), never much more. */
  static final double FIT_TOLERANCE = 1.05;

  /**
   * Its utilisation over the minutes of [from, to) that have a value: vCPU-seconds ÷ (vCPUs × 60 ×
   * minutes); NaN when it has none there.
   */
  public double utilisation(Instant from, Instant to) {
    double used = 0;
    int minutes = 0;
    for (Map.Entry<Instant, Double> m : vcpuSeconds.entrySet()) {
      if (!m.getKey().isBefore(from) && m.getKey().isBefore(to)) {
        used += m.getValue();
        minutes++;
      }
    }
    return minutes == 0 ? Double.NaN : used / (vcpus * 60.0 * minutes);
  }

  /**
   * Refuses a minute that used more than the job's vCPUs can: the wrong --vcpus (all jobs' where
   * each job's is meant) or the wrong file.
   */
  void requireFits(String file) {
    for (Map.Entry<Instant, Double> m : vcpuSeconds.entrySet()) {
      if (m.getValue() > vcpus * 60.0 * FIT_TOLERANCE) {
        throw new IllegalArgumentException(
            String.format(
                Locale.ROOT,
                "--cpu %s, minute %s: %,.1f vCPU-seconds is more than %d vCPUs can use in a minute"
                    + " (%,d): give each job's vCPUs with --vcpus (repeat it, one per --cpu file, in"
                    + " their order), or check that the file is this job's",
                file,
                m.getKey(),
                m.getValue(),
                vcpus,
                vcpus * 60));
      }
    }
  }

  /** The jobs' vCPU-seconds per minute summed: what the phases' CPU utilisation is made of. */
  public static Map<Instant, Double> summed(List<JobCpu> jobs) {
    Map<Instant, Double> sum = new TreeMap<>();
    jobs.forEach(j -> j.vcpuSeconds.forEach((m, v) -> sum.merge(m, v, Double::sum)));
    return sum;
  }

  /** All jobs' vCPUs. */
  public static int totalVcpus(List<JobCpu> jobs) {
    return jobs.stream().mapToInt(JobCpu::vcpus).sum();
  }
}
