package dev.ingestbench.analysis.diagnosis;

import dev.ingestbench.analysis.stats.PhaseSummary;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How many writers (jobs) each phase had, and what says so, strongest evidence first: {@code
 * --jobs-in}; a per-job activity series (a {@code --connections} series with a job column: jobs
 * with open connections; one {@code --cpu} file per job: jobs using CPU) in most of the phase's
 * minutes; and only where neither exists, an estimate from the level ratios (the first level has
 * one writer; a level above the one before at least one more, the nearest whole multiple of the
 * ratio if larger; a level below at least one fewer). An estimate made from the levels cannot judge
 * how the levels scale: {@link ScalingVerdicts} says so instead of judging.
 *
 * @param counts writers per phase name
 * @param sources what gave each phase's count
 */
public record WriterEvidence(Map<String, Integer> counts, Map<String, String> sources) {
  public static final String GIVEN = "--jobs-in";
  public static final String ESTIMATED = "estimated from the level ratios";

  /** A job writes in a minute when its activity is above this share of its own busiest minute. */
  static final double ACTIVE_SHARE = 0.05;

  public boolean estimated(String phase) {
    return ESTIMATED.equals(sources.get(phase));
  }

  /**
   * @param jobsInSource what gave {@code jobsIn}: {@link #GIVEN}, or a scenario's stage plan
   * @param jobActivity per job, a value per minute (open connections, or vCPU-seconds) where
   *     recorded
   * @param activitySource what that series is, for the evidence ("connections series", "per-job
   *     CPU")
   */
  public static WriterEvidence of(
      List<PhaseSummary> phases,
      Map<String, Integer> jobsIn,
      String jobsInSource,
      Map<String, Map<Instant, Double>> jobActivity,
      String activitySource) {
    Map<String, Integer> counts = new LinkedHashMap<>();
    Map<String, String> sources = new LinkedHashMap<>();
    PhaseSummary previous = null;
    for (PhaseSummary p : phases) {
      String name = p.phase().name();
      Integer given = jobsIn.get(name);
      Integer observed = given != null ? null : activeJobs(p, jobActivity);
      if (given != null) {
        counts.put(name, given);
        sources.put(name, jobsInSource);
      } else if (observed != null) {
        counts.put(name, observed);
        sources.put(name, activitySource);
      } else if (previous == null
          || !ScalingVerdicts.sameWindow(previous, p)
          || !counts.containsKey(previous.phase().name())) {
        counts.put(name, 1);
        sources.put(name, ESTIMATED);
      } else {
        int before = counts.get(previous.phase().name());
        double ratio = p.rowsPerSecond().mean() / previous.rowsPerSecond().mean();
        int estimate = (int) Math.round(before * ratio);
        counts.put(
            name,
            ratio >= 1
                ? Math.max(before + 1, estimate)
                : Math.max(1, Math.min(before - 1, estimate)));
        sources.put(name, ESTIMATED);
      }
      previous = p;
    }
    return new WriterEvidence(counts, sources);
  }

  /**
   * Jobs active in more than half of the phase's minutes that have a value for any job; null when
   * no minute of the phase has one (the series does not cover it).
   */
  private static Integer activeJobs(PhaseSummary p, Map<String, Map<Instant, Double>> jobActivity) {
    if (jobActivity.isEmpty()) {
      return null;
    }
    // Each job's busiest minute once, not once per minute of every phase.
    Map<String, Double> peaks = new LinkedHashMap<>();
    jobActivity.forEach(
        (job, series) ->
            peaks.put(
                job, series.values().stream().mapToDouble(Double::doubleValue).max().orElse(0)));
    int covered = 0;
    Map<String, Integer> activeMinutes = new LinkedHashMap<>();
    for (Instant minute = p.phase().start();
        minute.isBefore(p.phase().end());
        minute = minute.plusSeconds(60)) {
      boolean any = false;
      for (Map.Entry<String, Map<Instant, Double>> job : jobActivity.entrySet()) {
        Double v = job.getValue().get(minute);
        if (v == null) {
          continue;
        }
        any = true;
        if (v > ACTIVE_SHARE * peaks.get(job.getKey()) && v > 0) {
          activeMinutes.merge(job.getKey(), 1, Integer::sum);
        }
      }
      covered += any ? 1 : 0;
    }
    if (covered == 0) {
      return null;
    }
    int half = covered;
    return (int) activeMinutes.values().stream().filter(m -> 2 * m > half).count();
  }
}
