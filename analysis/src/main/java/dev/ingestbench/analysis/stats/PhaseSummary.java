package dev.ingestbench.analysis.stats;

import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.phases.Phase;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The numbers of one phase: per-minute (or per-second) rates with spread and 95% CI, bytes per row,
 * CPU utilisation where a vCPU series is given, rows/s per vCPU, error rows.
 *
 * @param cpuUtilisation vCPU-seconds used ÷ (vCPUs × seconds), NaN without a vCPU series
 * @param cpuSamples how many buckets of the phase had a vCPU value
 */
public record PhaseSummary(
    Phase phase,
    List<Double> rowsPerSecondSamples,
    Estimate rowsPerSecond,
    Estimate mbPerSecond,
    double bytesPerRow,
    long errorRows,
    double cpuUtilisation,
    int cpuSamples,
    int vcpus) {

  public static PhaseSummary of(
      Phase phase, List<Bucket> buckets, Map<Instant, Double> vcpuSeconds, int vcpus) {
    List<Double> rows = buckets.stream().map(Bucket::rowsPerSecond).toList();
    long totalRows = buckets.stream().mapToLong(Bucket::rows).sum();
    long totalBytes = buckets.stream().mapToLong(Bucket::bytes).sum();
    double used = 0;
    int samples = 0;
    long seconds = 0;
    for (Bucket b : buckets) {
      Double v = vcpuSeconds.get(b.start());
      if (v != null) {
        used += v;
        samples++;
        seconds += b.seconds();
      }
    }
    double utilisation =
        samples == 0 || vcpus <= 0 ? Double.NaN : used / (vcpus * (double) seconds);
    return new PhaseSummary(
        phase,
        rows,
        Estimate.of(rows),
        Estimate.of(buckets.stream().map(Bucket::mbPerSecond).toList()),
        totalRows == 0 ? Double.NaN : totalBytes / (double) totalRows,
        buckets.stream().mapToLong(Bucket::errorRows).sum(),
        utilisation,
        samples,
        vcpus);
  }

  /** Mean rows/s ÷ vCPUs (the reference rounds' "per-vCPU rows/sec"); NaN without --vcpus. */
  public double rowsPerSecondPerVcpu() {
    return vcpus <= 0 ? Double.NaN : rowsPerSecond.mean() / vcpus;
  }
}
