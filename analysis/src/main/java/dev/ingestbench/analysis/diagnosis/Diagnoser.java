package dev.ingestbench.analysis.diagnosis;

import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.model.Timeline;
import dev.ingestbench.analysis.stats.PhaseSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Names the bottleneck a run shows, each verdict with its evidence. Rules (docs/methodology.md):
 *
 * <ul>
 *   <li>CPU-bound: a phase's CPU utilisation is at least {@value #CPU_BOUND}.
 *   <li>Regional throughput quota: a phase's mean is at least {@value #QUOTA_NEAR} of the ~300 MB/s
 *       quota, or the per-minute MB/s saws (minutes above 80% of the quota followed by minutes below
 *       half of it, at least twice).
 *   <li>Connection limit: the estimate N tables × W workers × J jobs, or observed connections, is at
 *       least {@value #CONNECTIONS_NEAR} of 1,000.
 *   <li>Per-table contention: the steady rate scaled by less than 80% of the added jobs while CPU
 *       was spare and neither of the above applies (needs a comparison of job counts).
 * </ul>
 */
public final class Diagnoser {
  public static final double CPU_BOUND = 0.9;
  public static final double QUOTA_MB_PER_SECOND = 300;
  public static final double QUOTA_NEAR = 0.85;
  public static final int CONNECTION_LIMIT = 1_000;
  public static final double CONNECTIONS_NEAR = 0.8;
  /** More jobs should give at least this share of proportional throughput. */
  public static final double SCALING_FLOOR = 0.8;

  /**
   * What is known of the jobs, for the connection estimate (zeros mean unknown), and how many jobs
   * wrote during each phase, for the scaling rule.
   */
  public record Topology(
      int tables, int workersPerJob, int jobs, boolean pooled, int observedConnections, java.util.Map<String, Integer> jobsInPhase) {
    public Topology(int tables, int workersPerJob, int jobs, boolean pooled, int observedConnections) {
      this(tables, workersPerJob, jobs, pooled, observedConnections, java.util.Map.of());
    }

    public int estimatedConnections() {
      return tables * workersPerJob * jobs;
    }
  }

  private Diagnoser() {}

  public static List<Verdict> diagnose(List<PhaseSummary> phases, Timeline perMinute, Topology topology) {
    List<Verdict> verdicts = new ArrayList<>();
    for (PhaseSummary p : phases) {
      if (!Double.isNaN(p.cpuUtilisation()) && p.cpuUtilisation() >= CPU_BOUND) {
        verdicts.add(new Verdict("cpu-bound", p.phase().name(), "CPU-bound in " + p.phase().name(), String.format(Locale.ROOT,
            "CPU utilisation %.1f%% (≥ %.0f%%) over %d minute(s) with vCPU data; %,.0f rows/s = %,.0f rows/s per vCPU",
            100 * p.cpuUtilisation(), 100 * CPU_BOUND, p.cpuSamples(), p.rowsPerSecond().mean(), p.rowsPerSecondPerVcpu())));
      }
      if (p.mbPerSecond().mean() >= QUOTA_NEAR * QUOTA_MB_PER_SECOND) {
        verdicts.add(new Verdict(p.mbPerSecond().mean() >= QUOTA_MB_PER_SECOND ? "quota-exceeded-unthrottled" : "quota-near",
            p.phase().name(), "Near the regional throughput quota in " + p.phase().name(), String.format(Locale.ROOT,
            "mean %.1f MB/s ≥ %.0f%% of ~%.0f MB/s", p.mbPerSecond().mean(), 100 * QUOTA_NEAR, QUOTA_MB_PER_SECOND)));
      }
    }
    int sawteeth = sawteeth(perMinute, QUOTA_MB_PER_SECOND);
    if (sawteeth >= 2) {
      verdicts.add(new Verdict("quota-throttled", null, "Throttled by the regional throughput quota (sawtooth)", String.format(Locale.ROOT,
          "%d times a minute above %.0f MB/s was followed by one below %.0f MB/s", sawteeth,
          0.8 * QUOTA_MB_PER_SECOND, 0.5 * QUOTA_MB_PER_SECOND)));
    }
    int connections = Math.max(topology.observedConnections(), topology.pooled() ? 0 : topology.estimatedConnections());
    if (connections >= CONNECTIONS_NEAR * CONNECTION_LIMIT) {
      verdicts.add(new Verdict("connection-limit", null, "Near the 1,000 concurrent-connection limit", topology.observedConnections() > 0
          ? String.format(Locale.ROOT, "%,d connections observed", topology.observedConnections())
          : String.format(Locale.ROOT, "%d tables × %d workers × %d jobs = %,d connections without pooling",
              topology.tables(), topology.workersPerJob(), topology.jobs(), topology.estimatedConnections())));
    }
    boolean otherLimit = !verdicts.isEmpty();
    for (PhaseSummary p : phases) {
      for (PhaseSummary q : phases) {
        Integer jp = topology.jobsInPhase().get(p.phase().name());
        Integer jq = topology.jobsInPhase().get(q.phase().name());
        if (jp == null || jq == null || jq <= jp || ScalingVerdicts.sameWindow(p, q)) {
          continue;
        }
        double expected = (double) jq / jp;
        double actual = q.rowsPerSecond().mean() / p.rowsPerSecond().mean();
        boolean cpuSpare = (Double.isNaN(p.cpuUtilisation()) || p.cpuUtilisation() < CPU_BOUND)
            && (Double.isNaN(q.cpuUtilisation()) || q.cpuUtilisation() < CPU_BOUND);
        if (actual < SCALING_FLOOR * expected && cpuSpare && !otherLimit) {
          verdicts.add(new Verdict("contention", q.phase().name(), "Per-table contention (sub-linear scaling)", String.format(Locale.ROOT,
              "%s with %d job(s): %,.0f rows/s; %s with %d: %,.0f rows/s = %.2f× for %.2f× the jobs (< %.0f%%),"
                  + " CPU spare where measured, no quota or connection signal",
              p.phase().name(), jp, p.rowsPerSecond().mean(), q.phase().name(), jq, q.rowsPerSecond().mean(),
              actual, expected, 100 * SCALING_FLOOR)));
        }
      }
    }
    // Levels a job window was split into: a writer joining or leaving, linear or not. A sub-linear
    // step is only called contention when no other limit explains it.
    for (Verdict v : ScalingVerdicts.of(phases, topology.jobsInPhase())) {
      if (v.kind().equals("linear-scaling") || !otherLimit) {
        verdicts.add(v);
      }
    }
    if (verdicts.stream().noneMatch(v -> !"linear-scaling".equals(v.kind()))) {
      verdicts.add(new Verdict("no-bottleneck", null, "No bottleneck signal", "CPU below " + (int) (100 * CPU_BOUND)
          + "% where measured, throughput below the quota, connections below the limit (or unknown)"));
    }
    return verdicts;
  }

  /**
   * How often a bucket above 80% of {@code quotaMbPerSecond} is followed by a bucket below half of
   * it that still wrote rows: the quota's sawtooth (bursts, then throttled appends).
   */
  public static int sawteeth(Timeline timeline, double quotaMbPerSecond) {
    int count = 0;
    List<Bucket> b = timeline.buckets();
    for (int i = 1; i < b.size(); i++) {
      if (b.get(i - 1).mbPerSecond() > 0.8 * quotaMbPerSecond && b.get(i).mbPerSecond() < 0.5 * quotaMbPerSecond
          && b.get(i).rows() > 0) {
        count++;
      }
    }
    return count;
  }
}
