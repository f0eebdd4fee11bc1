package dev.ingestbench.analysis.scenario;

import dev.ingestbench.analysis.model.Timeline;
import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.phases.SteadyStateDetector;
import dev.ingestbench.contracts.ScenarioSample;
import java.util.List;

/**
 * {@code until: steady} while a scenario runs: docs/methodology.md's steady-state rule applied to a
 * job's trailing {@link #WINDOW_SECONDS} seconds. The job is steady once that rule's steady state
 * has lasted {@link #MIN_STEADY_SECONDS} and still holds in the latest seconds. A trailing window
 * (not everything since the stage began) lets a job settle at a new level when another job joins.
 * With samples longer than a second (Dataflow's poll interval) the window is at least {@link
 * #MIN_WINDOW_SAMPLES} samples and the steady state at least half of them.
 */
public final class OnlineSteady {
  public static final int WINDOW_SECONDS = 60;
  public static final int MIN_STEADY_SECONDS = 30;

  /** The latest seconds may dip this long without ending the steady state (one slow flush). */
  private static final int DIP_SECONDS = 2;

  public static final int MIN_WINDOW_SAMPLES = 10;

  private OnlineSteady() {}

  /**
   * True when {@code job} is steady as of second {@code now} (exclusive), looking no further back
   * than {@code since}.
   */
  public static boolean reached(List<ScenarioSample> samples, String job, long since, long now) {
    int width = JobSeconds.width(samples);
    long window = Math.max(WINDOW_SECONDS, (long) MIN_WINDOW_SAMPLES * width);
    long minSteady = Math.max(MIN_STEADY_SECONDS, (long) MIN_WINDOW_SAMPLES / 2 * width);
    long from = Math.max(since, now - window);
    if (now - from < minSteady) {
      return false;
    }
    Timeline seconds = JobSeconds.of(samples, job, from, now);
    int dip = width == 1 ? DIP_SECONDS : 1;
    for (Phase p : new SteadyStateDetector().detect(seconds)) {
      if (p.name().equals("steady")) {
        return (long) p.buckets() * width >= minSteady
            && p.toIndex() >= seconds.buckets().size() - dip;
      }
    }
    return false;
  }
}
