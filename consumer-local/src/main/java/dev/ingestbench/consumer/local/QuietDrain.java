package dev.ingestbench.consumer.local;

import java.util.Locale;

/**
 * When a local run's answer is known before it is complete: the pipeline has read every expected
 * message, and for a whole quiet period it has read nothing new and written nothing. What is not
 * accounted for by then was lost by the pipeline (a store that dropped acknowledged rows, a bug),
 * and waiting for the timeout would only delay that answer by minutes.
 *
 * <p>The quiet period exceeds the Pub/Sub ack deadline and the triggering frequency (checked with
 * the flag), so a message still being redelivered or a commit still due is waited for; an append
 * that is refused and retried (a quota, a fault), or held unanswered (a quota's window), is
 * activity too; a message the run never read keeps it waiting for the timeout, as before.
 */
public final class QuietDrain {
  /** How the stop reason starts, so that the result is read as verified (not a timeout). */
  public static final String STOP_REASON = "source read in full";

  private final long expected;
  private final long quietNanos;
  private long lastRead = -1;
  private long lastRows = -1;
  private long lastRequests = -1;
  private long lastChangeNanos;

  /**
   * @param expected messages the run waits for (0: never answers early)
   * @param quietSeconds how long nothing may change (0: never answers early)
   */
  QuietDrain(long expected, long quietSeconds, long startNanos) {
    this.expected = expected;
    this.quietNanos = quietSeconds * 1_000_000_000L;
    this.lastChangeNanos = startNanos;
  }

  /**
   * @param read distinct expected messages the pipeline has read
   * @param rows rows visible in the job's tables, duplicates included
   * @param requests AppendRows requests the job made, refused ones included: a job a quota or a
   *     fault keeps refusing is still writing
   * @param inFlight its appends not yet answered (one a quota holds is still on its way)
   * @param handled messages written or dead-lettered
   */
  boolean answerKnown(
      long read, long rows, long requests, int inFlight, long handled, long nowNanos) {
    if (read != lastRead || rows != lastRows || requests != lastRequests || inFlight > 0) {
      lastRead = read;
      lastRows = rows;
      lastRequests = requests;
      lastChangeNanos = nowNanos;
      return false;
    }
    return expected > 0
        && quietNanos > 0
        && read >= expected
        && handled < expected
        && nowNanos - lastChangeNanos >= quietNanos;
  }

  String stopReason() {
    return String.format(
        Locale.ROOT,
        "%s: every one of the %,d expected messages was read, then nothing was written for %d s"
            + " (--quietPeriodSeconds), so what is not accounted for is lost",
        STOP_REASON,
        expected,
        quietNanos / 1_000_000_000L);
  }
}
