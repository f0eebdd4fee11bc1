package dev.ingestbench.scenario;

import dev.ingestbench.contracts.RateProfile;
import dev.ingestbench.contracts.StepStatus;
import dev.ingestbench.contracts.StopMode;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * One stage, ready to run.
 *
 * @param index 0-based position
 * @param running the jobs running once the stage has started and stopped its jobs
 * @param hold how long it holds, or null with {@code until}
 * @param max the longest an {@code until} waits
 * @param kind what it does: start and stop jobs, a Pub/Sub load test, or a max-rate search
 * @param stopWith how the jobs in {@code stop} end, or null for the target's default
 * @param faults the consumer and TaskManager kills it injects into its running jobs
 * @param liveProfile the steps of the live rate from its start (multiples of {@link
 *     ScenarioPlan#rate}), or null for the rate as it is
 */
public record PlannedStage(
    int index,
    String name,
    List<String> start,
    List<String> stop,
    List<String> running,
    Duration hold,
    Until until,
    Duration max,
    StageKind kind,
    StopMode stopWith,
    StageFaults faults,
    RateProfile liveProfile) {

  /** A stage that runs a Pub/Sub load test instead of starting and stopping jobs. */
  public boolean isLoadTest() {
    return kind instanceof StageKind.LoadTest;
  }

  /**
   * A stage that searches for the highest rate one job's configuration sustains ({@code round
   * --find-max-rate}) instead of starting and stopping jobs.
   */
  public boolean isMaxRateSearch() {
    return kind instanceof StageKind.MaxRateSearch;
  }

  /** This stage's search; an executor of max-rate stages is handed no other kind. */
  public StageKind.MaxRateSearch search() {
    if (kind instanceof StageKind.MaxRateSearch search) {
      return search;
    }
    throw new IllegalStateException("stage " + name + " is not a find_max_rate stage");
  }

  /** This stage's load test; an executor of load-test stages is handed no other kind. */
  public StageKind.LoadTest loadTest() {
    if (kind instanceof StageKind.LoadTest load) {
      return load;
    }
    throw new IllegalStateException("stage " + name + " is not a pubsub_load stage");
  }

  /**
   * The status marker of this stage once it ran a test of its own (a load test, a max-rate search):
   * {@code met} when the test found nothing wrong.
   */
  public StepStatus status(boolean met, String startedAt, String endedAt, int segment) {
    return new StepStatus(
        marker(), name, 1, running, start, stop, condition(), met, startedAt, endedAt, segment);
  }

  /** The name of its status marker: {@code 01-a-alone}. */
  public String marker() {
    return String.format(Locale.ROOT, "%02d-%s", index + 1, name);
  }

  /** How it ends, as a person reads it. */
  public String condition() {
    // StepStatus.isMaxRateSearch and isLoadTest recognise these stages by their beginning.
    if (kind instanceof StageKind.MaxRateSearch search) {
      return StepStatus.MAX_RATE + " " + search.job() + " " + String.join(" ", search.args());
    }
    if (kind instanceof StageKind.LoadTest load) {
      return (StepStatus.LOAD_TEST + " " + String.join(" ", load.args())).trim();
    }
    return jobsCondition();
  }

  private String jobsCondition() {
    String condition =
        hold != null
            ? "hold " + Durations.show(hold)
            : "until " + until + " (max " + Durations.show(max) + ")";
    // The kills and a stepped rate are part of what the stage measured: its report and status
    // say so.
    if (faults.any()) {
      condition += "; " + faults.describe();
    }
    return liveProfile == null ? condition : condition + "; live rate stepped: " + liveProfile;
  }

  /** The longest it can last (a load test: its burn-in and window, and the longest drain after). */
  public Duration longest() {
    return kind.longest(hold != null ? hold : max);
  }
}
