package dev.ingestbench.harness.staged;

import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.verification.JobCounts;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Jobs whose consumer ended by itself (exit 1: its timeout, or its pipeline ended) before it had
 * accounted for every message it was given. One that left messages in its source cannot be judged:
 * the run did not finish what it was to measure, and what it had appended and not flushed when it
 * gave up may be missing too. One that had read its source to the end is judged: what it did not
 * write is lost.
 */
final class ShortStops {
  /** Each such job, with how far it got: {@code 40 of 100}. */
  private final Map<String, String> got = new LinkedHashMap<>();

  /** Notes a job that ended by itself short of its count; returns the reading. */
  StageTarget.JobReading seen(String job, StageTarget.JobReading reading) {
    if (reading.exit().isPresent()
        && reading.exit().getAsInt() == ExitCodes.INCOMPLETE
        && reading.accountedFor() < reading.expected()) {
      got.putIfAbsent(
          job,
          String.format(Locale.ROOT, "%,d of %,d", reading.accountedFor(), reading.expected()));
    }
    return reading;
  }

  /** {@code counts}, not verified where the job stopped short and left messages in its source. */
  JobCounts judged(String job, JobCounts counts, Path log) {
    String far = got.get(job);
    // Counted (StoppedJobs gives a left only with the verification's figures, 0 when every
    // message was accounted for): a job that left nothing in its source is judged on them.
    if (far == null || counts.unverified() != null || counts.left() == null || counts.left() == 0) {
      return counts;
    }
    return counts.unverified(
        String.format(
            Locale.ROOT,
            "its consumer stopped by itself with %s messages accounted for (its timeout, or its"
                + " pipeline ended: see %s) and left %,d in its source%s: the run did not finish,"
                + " so what it did not write is not a measured loss; give it more time (a round:"
                + " --timeout) or fewer messages",
            far,
            log,
            counts.left(),
            counts.lost() > 0
                ? String.format(
                    Locale.ROOT,
                    ", and %,d neither written nor left%s",
                    counts.lost(),
                    counts.exactlyOnce()
                        ? " (under exactly-once, what it had appended and not flushed when it"
                            + " stopped)"
                        : "")
                : ""));
  }
}
