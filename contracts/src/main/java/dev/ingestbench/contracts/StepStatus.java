package dev.ingestbench.contracts;

import java.util.List;

/**
 * The status marker of a finished step of a scenario run (a stage, or one iteration of an unordered
 * configuration), in {@link RunFiles#STATUS_DIRECTORY}. Its presence is what a rerun skips; its
 * content places the step on the run's timeline.
 *
 * @param step the marker's name: {@code 01-a-alone}, or {@code exactly-once-i2}
 * @param jobs the jobs running during the step
 * @param started the jobs the step started
 * @param stopped the jobs the step stopped
 * @param condition {@code hold 15m}, {@code until steady (max 5m)}, ..., {@code pubsub-load FLAGS}
 *     for a stage that ran a Pub/Sub load test, or {@code max-rate JOB FLAGS} for one that searched
 *     for the highest rate a job sustains
 * @param conditionMet false when an {@code until} gave up at its {@code max} (a load test: not
 *     every message accounted for; a max-rate search: no rate sustained, or its verification
 *     failed)
 * @param segment which (re)start of the run measured it: 1, then 2 after a resume, ...
 */
public record StepStatus(
    String step,
    String stage,
    int iteration,
    List<String> jobs,
    List<String> started,
    List<String> stopped,
    String condition,
    boolean conditionMet,
    String startedAt,
    String endedAt,
    int segment) {

  /** How a load-test stage's condition begins. */
  public static final String LOAD_TEST = "pubsub-load";

  /** How a max-rate stage's condition begins ({@code round --find-max-rate} for one job). */
  public static final String MAX_RATE = "max-rate";

  /** A stage that searched for the highest rate a job sustains instead of running the jobs. */
  public boolean isMaxRateSearch() {
    return condition != null && condition.startsWith(MAX_RATE + " ");
  }

  /** A stage that ran the scenario's jobs (not a load test, not a max-rate search). */
  public boolean runsJobs() {
    return !isLoadTest() && !isMaxRateSearch();
  }

  /** A stage that ran a Pub/Sub load test instead of starting and stopping jobs. */
  public boolean isLoadTest() {
    return condition != null && condition.startsWith(LOAD_TEST);
  }
}
