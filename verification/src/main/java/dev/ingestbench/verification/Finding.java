package dev.ingestbench.verification;

/**
 * One reason a run did not pass, tied to the stage and job it concerns.
 *
 * @param stage the stage or iteration; null for a round (it has one)
 * @param job the job, or null for a stage-wide finding (a failed load test)
 * @param kind what went wrong, which decides the exit code
 * @param message one sentence for a person: the figures and where to look
 */
public record Finding(String stage, String job, Kind kind, String message) {

  /** What went wrong. Every kind but {@link #UNVERIFIED} is a failed verification (exit 1). */
  public enum Kind {
    /** Published messages neither written, dead-lettered nor left in the source. */
    LOST,
    /** Rows written twice by a job that promised exactly-once. */
    DUPLICATES,
    /**
     * Rows whose content is not what their event index must produce (a column dropped or altered).
     */
    MISMATCHED,
    /** Rows in another of the job's tables than their event goes to (a routing fault). */
    MISROUTED,
    /** More messages dead-lettered than the run allows. */
    DEAD_LETTERS,
    /** A Pub/Sub load-test stage did not receive every message it published. */
    LOAD_TEST,
    /** A stage did not do what it is for (a running job had nothing left to read). */
    STAGE_PURPOSE,
    /**
     * The figures cannot decide (a timeout, a miscount, a source that could not be read): exit 3.
     */
    UNVERIFIED
  }

  /** How a printed line about it begins: what kind of verdict it is. */
  public String heading() {
    return switch (kind) {
      case UNVERIFIED -> "Not verified:";
      case STAGE_PURPOSE -> "Not measured:";
      default -> "Verification failed:";
    };
  }

  /**
   * "stage a-and-b, job a: ...", "job consumer-2: ..." (a round), "stage source: ..." (the whole
   * stage).
   */
  public String line() {
    String where =
        stage == null
            ? "job " + job
            : job == null ? "stage " + stage : "stage " + stage + ", job " + job;
    return where + ": " + message;
  }
}
