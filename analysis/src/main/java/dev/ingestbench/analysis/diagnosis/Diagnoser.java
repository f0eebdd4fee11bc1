package dev.ingestbench.analysis.diagnosis;

import dev.ingestbench.analysis.model.Timeline;
import dev.ingestbench.analysis.source.JobCpu;
import dev.ingestbench.analysis.stats.PhaseSummary;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Names the bottleneck a run shows, each verdict with its evidence. Rules (docs/methodology.md):
 *
 * <ul>
 *   <li>CPU-bound: a phase's CPU utilisation is at least {@value #CPU_BOUND}.
 *   <li>Regional throughput quota (300 MiB/s = 314.57 MB/s unless the topology says otherwise): the
 *       per-minute MB/s saws ({@link QuotaSawtooth}: bursts above the quota followed by minutes
 *       below half of it, at least twice): throttled; else a phase's mean above the quota: above it
 *       and not throttled (burst headroom); else at least {@value #QUOTA_NEAR} of it: near.
 *   <li>Connection limit: the estimate N tables × W workers × J jobs, or observed connections, is
 *       at least {@value #CONNECTIONS_NEAR} of 1,000.
 *   <li>Scaling ({@link ScalingVerdicts}): one verdict per change of writers, on the rate per
 *       writer, with writers from evidence ({@link WriterEvidence}); contention only when a writer
 *       joining lowered the per-writer rate and no other limit explains it.
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
      int tables,
      int workersPerJob,
      int jobs,
      boolean pooled,
      int observedConnections,
      Map<String, Integer> jobsInPhase,
      double quotaMbPerSecond,
      Map<String, Map<Instant, Double>> jobActivity,
      String jobActivitySource,
      String jobsInSource,
      List<JobCpu> jobCpu) {
    public Topology(
        int tables,
        int workersPerJob,
        int jobs,
        boolean pooled,
        int observedConnections,
        Map<String, Integer> jobsInPhase,
        double quotaMbPerSecond,
        Map<String, Map<Instant, Double>> jobActivity,
        String jobActivitySource,
        String jobsInSource) {
      this(
          tables,
          workersPerJob,
          jobs,
          pooled,
          observedConnections,
          jobsInPhase,
          quotaMbPerSecond,
          jobActivity,
          jobActivitySource,
          jobsInSource,
          List.of());
    }

    /**
     * The same, with each job's CPU and vCPUs: CPU verdicts then judge and name each job (several
     * jobs' CPU against one job's vCPUs read 150%).
     */
    public Topology withJobCpu(List<JobCpu> perJob) {
      return new Topology(
          tables,
          workersPerJob,
          jobs,
          pooled,
          observedConnections,
          jobsInPhase,
          quotaMbPerSecond,
          jobActivity,
          jobActivitySource,
          jobsInSource,
          List.copyOf(perJob));
    }

    public Topology(
        int tables,
        int workersPerJob,
        int jobs,
        boolean pooled,
        int observedConnections,
        Map<String, Integer> jobsInPhase,
        double quotaMbPerSecond) {
      this(
          tables,
          workersPerJob,
          jobs,
          pooled,
          observedConnections,
          jobsInPhase,
          quotaMbPerSecond,
          Map.of(),
          "",
          WriterEvidence.GIVEN);
    }

    /**
     * The same, with a per-job series (per minute) that says which jobs wrote when: the writers'
     * evidence.
     */
    public Topology withJobActivity(Map<String, Map<Instant, Double>> activity, String source) {
      return new Topology(
          tables,
          workersPerJob,
          jobs,
          pooled,
          observedConnections,
          jobsInPhase,
          quotaMbPerSecond,
          activity,
          source,
          jobsInSource);
    }

    /**
     * The same, saying where {@code jobsInPhase} came from (default {@code --jobs-in}), e.g. a
     * stage plan.
     */
    public Topology withJobsInSource(String source) {
      return new Topology(
          tables,
          workersPerJob,
          jobs,
          pooled,
          observedConnections,
          jobsInPhase,
          quotaMbPerSecond,
          jobActivity,
          jobActivitySource,
          source);
    }

    public Topology(
        int tables, int workersPerJob, int jobs, boolean pooled, int observedConnections) {
      this(tables, workersPerJob, jobs, pooled, observedConnections, Map.of());
    }

    public Topology(
        int tables,
        int workersPerJob,
        int jobs,
        boolean pooled,
        int observedConnections,
        Map<String, Integer> jobsInPhase) {
      this(
          tables,
          workersPerJob,
          jobs,
          pooled,
          observedConnections,
          jobsInPhase,
          QUOTA_MB_PER_SECOND);
    }

    public int estimatedConnections() {
      return tables * workersPerJob * jobs;
    }
  }

  /**
   * Verdicts that describe without naming a limit: with only these, there is no bottleneck signal.
   */
  private static final Set<String> INFORMATIONAL =
      Set.of(
          "linear-scaling", "scaling-not-judged", "remaining-writers-faster", "rate-set-elsewhere");

  private Diagnoser() {}

  /** Each job whose own CPU reached {@link #CPU_BOUND} of its own vCPUs in phase {@code p}. */
  private static List<Verdict> cpuBoundJobs(PhaseSummary p, List<JobCpu> jobs) {
    List<Verdict> verdicts = new ArrayList<>();
    Instant from = p.phase().start();
    Instant to = p.phase().end();
    for (JobCpu job : jobs) {
      double u = job.utilisation(from, to);
      if (!Double.isNaN(u) && u >= CPU_BOUND) {
        verdicts.add(
            new Verdict(
                "cpu-bound",
                p.phase().name(),
                "CPU-bound in " + p.phase().name() + ": job " + job.job(),
                String.format(
                    Locale.ROOT,
                    "job %s used %.1f%% of its %d vCPUs (≥ %.0f%%) over the phase's minutes with its"
                        + " CPU data; the phase's %,.0f rows/s are all jobs'",
                    job.job(),
                    100 * u,
                    job.vcpus(),
                    100 * CPU_BOUND,
                    p.rowsPerSecond().mean())));
      }
    }
    return verdicts;
  }

  /** Each phase's writers and what says so (see {@link WriterEvidence}). */
  public static WriterEvidence writers(List<PhaseSummary> phases, Topology topology) {
    return WriterEvidence.of(
        phases,
        topology.jobsInPhase(),
        topology.jobsInSource(),
        topology.jobActivity(),
        topology.jobActivitySource());
  }

  public static List<Verdict> diagnose(
      List<PhaseSummary> phases, Timeline perMinute, Topology topology) {
    List<Verdict> verdicts = new ArrayList<>();
    cpuBound(phases, topology, verdicts);
    quota(phases, perMinute, topology.quotaMbPerSecond(), verdicts);
    connections(topology, verdicts);
    boolean otherLimit = !verdicts.isEmpty();
    // One judge for every change of writers, on the rate per writer and the writers' evidence.
    String limit =
        verdicts.stream()
            .filter(v -> !"cpu-bound".equals(v.kind()))
            .map(Verdict::verdict)
            .findFirst()
            .map(v -> "the \"" + v + "\" verdict")
            .orElse(null);
    verdicts.addAll(ScalingVerdicts.of(phases, writers(phases, topology), limit));
    // CPU to spare and BigQuery not limiting: the rate was set before the write (the source).
    if (!otherLimit) {
      upstreamBound(phases, verdicts);
    }
    if (verdicts.stream().allMatch(v -> INFORMATIONAL.contains(v.kind()))) {
      verdicts.add(
          new Verdict(
              "no-bottleneck",
              null,
              "No bottleneck signal",
              "CPU below "
                  + (int) (100 * CPU_BOUND)
                  + "% where measured, throughput below the quota, connections below the limit (or unknown)"));
    }
    return verdicts;
  }

  /** Each phase whose jobs (or whose CPU as a whole) used nearly all their vCPUs. */
  private static void cpuBound(
      List<PhaseSummary> phases, Topology topology, List<Verdict> verdicts) {
    for (PhaseSummary p : phases) {
      if (!topology.jobCpu().isEmpty()) {
        cpuBoundJobs(p, topology.jobCpu()).forEach(verdicts::add);
      } else if (!Double.isNaN(p.cpuUtilisation()) && p.cpuUtilisation() >= CPU_BOUND) {
        verdicts.add(
            new Verdict(
                "cpu-bound",
                p.phase().name(),
                "CPU-bound in " + p.phase().name(),
                String.format(
                    Locale.ROOT,
                    "CPU utilisation %.1f%% (≥ %.0f%%) over %d minute(s) with vCPU data; %,.0f rows/s = %,.0f rows/s per vCPU",
                    100 * p.cpuUtilisation(),
                    100 * CPU_BOUND,
                    p.cpuSamples(),
                    p.rowsPerSecond().mean(),
                    p.rowsPerSecondPerVcpu())));
      }
    }
  }

  /** The regional throughput quota: its sawtooth, or a phase at or near it without one. */
  private static void quota(
      List<PhaseSummary> phases, Timeline perMinute, double quota, List<Verdict> verdicts) {
    Optional<QuotaSawtooth> saw = QuotaSawtooth.find(perMinute, quota);
    saw.ifPresent(
        w ->
            verdicts.add(
                new Verdict(
                    "quota-throttled",
                    null,
                    "Throttled by the regional throughput quota (sawtooth)",
                    String.format(
                        Locale.ROOT,
                        "%d cycle(s) of %.1f minutes: bursts at %.1f MB/s (above the %.1f MB/s quota), then throttled"
                            + " at %.1f MB/s; %.1f MB/s over the cycles (%.0f%% of the quota); %d burst-to-throttle turns",
                        w.cycles(),
                        w.periodSeconds() / 60,
                        w.burstMbPerSecond(),
                        quota,
                        w.throttledMbPerSecond(),
                        w.meanMbPerSecond(),
                        100 * w.meanMbPerSecond() / quota,
                        w.turns()))));
    for (PhaseSummary p : phases) {
      double mean = p.mbPerSecond().mean();
      if (saw.isEmpty() && mean >= quota) {
        verdicts.add(
            new Verdict(
                "quota-exceeded-unthrottled",
                p.phase().name(),
                "Above the regional throughput quota and not throttled in "
                    + p.phase().name()
                    + " (burst headroom)",
                String.format(
                    Locale.ROOT,
                    "mean %.1f MB/s ≥ the %.1f MB/s quota with no sawtooth",
                    mean,
                    quota)));
      } else if (saw.isEmpty() && mean >= QUOTA_NEAR * quota) {
        verdicts.add(
            new Verdict(
                "quota-near",
                p.phase().name(),
                "Near the regional throughput quota in " + p.phase().name(),
                String.format(
                    Locale.ROOT,
                    "mean %.1f MB/s ≥ %.0f%% of the %.1f MB/s quota",
                    mean,
                    100 * QUOTA_NEAR,
                    quota)));
      }
    }
  }

  /** Connections observed or estimated near the concurrent-connection limit. */
  private static void connections(Topology topology, List<Verdict> verdicts) {
    int connections =
        Math.max(
            topology.observedConnections(),
            topology.pooled() ? 0 : topology.estimatedConnections());
    if (connections >= CONNECTIONS_NEAR * CONNECTION_LIMIT) {
      String estimate =
          topology.estimatedConnections() > 0
              ? String.format(
                  Locale.ROOT,
                  "%d tables × %d workers × %d jobs = %,d connections without pooling%s",
                  topology.tables(),
                  topology.workersPerJob(),
                  topology.jobs(),
                  topology.estimatedConnections(),
                  topology.pooled() ? " (pooled)" : "")
              : "";
      verdicts.add(
          new Verdict(
              "connection-limit",
              null,
              "Near the 1,000 concurrent-connection limit",
              topology.observedConnections() > 0
                  ? String.format(
                      Locale.ROOT,
                      "%,d connections observed (peak)%s",
                      topology.observedConnections(),
                      estimate.isEmpty() ? "" : "; " + estimate)
                  : estimate));
    }
  }

  /** Each phase with CPU to spare that no contention verdict explains. */
  private static void upstreamBound(List<PhaseSummary> phases, List<Verdict> verdicts) {
    for (PhaseSummary p : phases) {
      boolean judged =
          verdicts.stream()
              .anyMatch(v -> "contention".equals(v.kind()) && p.phase().name().equals(v.phase()));
      if (!judged && !Double.isNaN(p.cpuUtilisation()) && p.cpuUtilisation() < UPSTREAM_CPU) {
        verdicts.add(
            new Verdict(
                "upstream-bound",
                p.phase().name(),
                "Limited upstream of BigQuery in " + p.phase().name(),
                String.format(
                    Locale.ROOT,
                    "CPU %.0f%% (headroom below %.0f%%), no quota throttling, no connection limit:"
                        + " %,.0f rows/s is what reached the writers; check the source's throughput (Pub/Sub or Kafka"
                        + " consumer, backlog) and the pipeline's parallelism",
                    100 * p.cpuUtilisation(),
                    100 * UPSTREAM_CPU,
                    p.rowsPerSecond().mean())));
      }
    }
  }

  /**
   * How often a bucket above {@code quotaMbPerSecond} is followed by a bucket below half of it that
   * still wrote rows: the quota's sawtooth (bursts, then throttled appends).
   */
  public static int sawteeth(Timeline timeline, double quotaMbPerSecond) {
    return QuotaSawtooth.turns(timeline, quotaMbPerSecond);
  }
}
