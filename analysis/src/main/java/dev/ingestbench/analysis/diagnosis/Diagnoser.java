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
 *   <li>Regional throughput quota (300 MiB/s = 314.57 MB/s unless the topology says otherwise): the
 *       per-minute MB/s saws ({@link QuotaSawtooth}: bursts above the quota followed by minutes
 *       below half of it, at least twice): throttled; else a phase's mean above the quota:
 *       above it and not throttled (burst headroom); else at least {@value #QUOTA_NEAR} of it: near.
 *   <li>Connection limit: the estimate N tables × W workers × J jobs, or observed connections, is at
 *       least {@value #CONNECTIONS_NEAR} of 1,000.
 *   <li>Per-table contention: the steady rate scaled by less than 80% of the added jobs while CPU
 *       was spare and neither of the above applies (needs a comparison of job counts).
 * </ul>
 */
public final class Diagnoser {
  public static final double CPU_BOUND = 0.9;
  /** Below this CPU, with no BigQuery-side limit, a level is set upstream of the writers. */
  public static final double UPSTREAM_CPU = 0.8;
  /** The regional Storage Write API throughput quota as measured: 300 MiB/s = 314,572,800 B/s. */
  public static final double QUOTA_MB_PER_SECOND = 314.5728;
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
      int tables, int workersPerJob, int jobs, boolean pooled, int observedConnections,
      java.util.Map<String, Integer> jobsInPhase, double quotaMbPerSecond) {
    public Topology(int tables, int workersPerJob, int jobs, boolean pooled, int observedConnections) {
      this(tables, workersPerJob, jobs, pooled, observedConnections, java.util.Map.of());
    }

    public Topology(int tables, int workersPerJob, int jobs, boolean pooled, int observedConnections,
        java.util.Map<String, Integer> jobsInPhase) {
      this(tables, workersPerJob, jobs, pooled, observedConnections, jobsInPhase, QUOTA_MB_PER_SECOND);
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
    }
    double quota = topology.quotaMbPerSecond();
    java.util.Optional<QuotaSawtooth> saw = QuotaSawtooth.find(perMinute, quota);
    saw.ifPresent(w -> verdicts.add(new Verdict("quota-throttled", null,
        "Throttled by the regional throughput quota (sawtooth)", String.format(Locale.ROOT,
            "%d cycle(s) of %.1f minutes: bursts at %.1f MB/s (above the %.1f MB/s quota), then throttled"
                + " at %.1f MB/s; %.1f MB/s over the cycles (%.0f%% of the quota); %d burst-to-throttle turns",
            w.cycles(), w.periodSeconds() / 60, w.burstMbPerSecond(), quota,
            w.throttledMbPerSecond(), w.meanMbPerSecond(), 100 * w.meanMbPerSecond() / quota, w.turns()))));
    for (PhaseSummary p : phases) {
      double mean = p.mbPerSecond().mean();
      if (saw.isEmpty() && mean >= quota) {
        verdicts.add(new Verdict("quota-exceeded-unthrottled", p.phase().name(),
            "Above the regional throughput quota and not throttled in " + p.phase().name() + " (burst headroom)",
            String.format(Locale.ROOT, "mean %.1f MB/s ≥ the %.1f MB/s quota with no sawtooth", mean, quota)));
      } else if (saw.isEmpty() && mean >= QUOTA_NEAR * quota) {
        verdicts.add(new Verdict("quota-near", p.phase().name(), "Near the regional throughput quota in "
            + p.phase().name(), String.format(Locale.ROOT, "mean %.1f MB/s ≥ %.0f%% of the %.1f MB/s quota", mean,
            100 * QUOTA_NEAR, quota)));
      }
    }
    int connections = Math.max(topology.observedConnections(), topology.pooled() ? 0 : topology.estimatedConnections());
    if (connections >= CONNECTIONS_NEAR * CONNECTION_LIMIT) {
      String estimate = topology.estimatedConnections() > 0 ? String.format(Locale.ROOT,
          "%d tables × %d workers × %d jobs = %,d connections without pooling%s", topology.tables(),
          topology.workersPerJob(), topology.jobs(), topology.estimatedConnections(), topology.pooled() ? " (pooled)" : "")
          : "";
      verdicts.add(new Verdict("connection-limit", null, "Near the 1,000 concurrent-connection limit",
          topology.observedConnections() > 0
              ? String.format(Locale.ROOT, "%,d connections observed (peak)%s", topology.observedConnections(),
                  estimate.isEmpty() ? "" : "; " + estimate)
              : estimate));
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
    // CPU to spare and BigQuery not limiting: the rate was set before the write (the source).
    if (!otherLimit) {
      for (PhaseSummary p : phases) {
        boolean judged = verdicts.stream().anyMatch(v -> "contention".equals(v.kind()) && p.phase().name().equals(v.phase()));
        if (!judged && !Double.isNaN(p.cpuUtilisation()) && p.cpuUtilisation() < UPSTREAM_CPU) {
          verdicts.add(new Verdict("upstream-bound", p.phase().name(), "Limited upstream of BigQuery in " + p.phase().name(),
              String.format(Locale.ROOT, "CPU %.0f%% (headroom below %.0f%%), no quota throttling, no connection limit:"
                  + " %,.0f rows/s is what reached the writers; check the source's throughput (Pub/Sub or Kafka"
                  + " consumer, backlog) and the pipeline's parallelism", 100 * p.cpuUtilisation(), 100 * UPSTREAM_CPU,
                  p.rowsPerSecond().mean())));
        }
      }
    }
    if (verdicts.stream().noneMatch(v -> !"linear-scaling".equals(v.kind()))) {
      verdicts.add(new Verdict("no-bottleneck", null, "No bottleneck signal", "CPU below " + (int) (100 * CPU_BOUND)
          + "% where measured, throughput below the quota, connections below the limit (or unknown)"));
    }
    return verdicts;
  }

  /**
   * How often a bucket above {@code quotaMbPerSecond} is followed by a bucket below half of it that
   * still wrote rows: the quota's sawtooth (bursts, then throttled appends).
   */
  public static int sawteeth(Timeline timeline, double quotaMbPerSecond) {
    return QuotaSawtooth.turns(timeline, quotaMbPerSecond);
  }
}
