package dev.ingestbench.analysis.scenario;

import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.model.Timeline;
import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.phases.SteadyStateDetector;
import dev.ingestbench.analysis.stats.Estimate;
import dev.ingestbench.contracts.ScenarioSample;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one job (or all jobs together) did during one stage: its steady seconds within the stage by
 * docs/methodology.md's rule (the whole stage when the rule finds none), their rows/s and MB/s with
 * spread and 95% CI, and CPU and connections over the same seconds.
 *
 * @param job a job, or null for every job summed
 * @param steadySeconds seconds in the steady state (intervals times their length)
 * @param steadyRowsPerSecond the rates of each steady interval the estimate is made of (for Welch
 *     tests)
 * @param cpuSeconds the job's consumer CPU-seconds in the steady seconds
 * @param peakConnections the most open AppendRows streams in any second of the stage
 * @param rows rows appended during the whole stage
 * @param accountedFor distinct messages written or dead-lettered by the stage's end (0 for all
 *     jobs)
 */
public record StageMeasures(
    String job,
    long from,
    long to,
    int steadySeconds,
    List<Double> steadyRowsPerSecond,
    Estimate rowsPerSecond,
    Estimate mbPerSecond,
    double cpuSeconds,
    int peakConnections,
    long rows,
    long accountedFor) {

  /**
   * {@code job}'s measures (null: all jobs) over the seconds {@code [from, to)} of the samples
   * taken for {@code stage} (a job being stopped as a stage begins still belongs to the stage
   * before).
   */
  public static StageMeasures of(
      List<ScenarioSample> allSamples, String stage, String job, long from, long to) {
    List<ScenarioSample> samples =
        allSamples.stream().filter(s -> s.stage().equals(stage)).toList();
    Timeline seconds = JobSeconds.of(samples, job, from, to);
    List<Bucket> all = seconds.buckets();
    List<Bucket> steady = all;
    for (Phase p : new SteadyStateDetector().detect(seconds)) {
      if (p.name().equals("steady")) {
        steady = seconds.slice(p.fromIndex(), p.toIndex());
      }
    }
    long steadyFrom = steady.isEmpty() ? from : steady.get(0).start().getEpochSecond();
    int width = seconds.bucketSeconds();
    long steadyTo =
        steady.isEmpty() ? to : steady.get(steady.size() - 1).start().getEpochSecond() + width;
    double cpu = 0;
    long accounted = 0;
    Map<Long, Integer> connections = new HashMap<>();
    for (ScenarioSample s : samples) {
      boolean mine = job == null || s.job().equals(job);
      if (!mine || s.epochSecond() < from || s.epochSecond() >= to) {
        continue;
      }
      if (s.epochSecond() >= steadyFrom && s.epochSecond() < steadyTo) {
        cpu += s.cpuSeconds();
      }
      connections.merge(s.epochSecond(), s.openConnections(), Integer::sum);
      if (job != null) {
        accounted = Math.max(accounted, s.accountedFor());
      }
    }
    List<Double> rates = steady.stream().map(Bucket::rowsPerSecond).toList();
    return new StageMeasures(
        job,
        from,
        to,
        steady.size() * width,
        rates,
        Estimate.of(rates),
        Estimate.of(steady.stream().map(Bucket::mbPerSecond).toList()),
        cpu,
        connections.values().stream().mapToInt(Integer::intValue).max().orElse(0),
        all.stream().mapToLong(Bucket::rows).sum(),
        accounted);
  }

  /** Steady rows per consumer CPU-second; NaN without CPU samples. */
  public double rowsPerCpuSecond() {
    double steadyRows =
        steadyRowsPerSecond.isEmpty()
            ? 0
            : steadyRowsPerSecond.stream().mapToDouble(Double::doubleValue).average().orElse(0)
                * steadySeconds;
    return cpuSeconds > 0 ? steadyRows / cpuSeconds : Double.NaN;
  }

  /** Consumer CPU in the steady seconds as vCPUs busy on average. */
  public double vcpusBusy() {
    return steadySeconds > 0 ? cpuSeconds / steadySeconds : Double.NaN;
  }
}
