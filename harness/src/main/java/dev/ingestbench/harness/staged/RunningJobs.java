package dev.ingestbench.harness.staged;

import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.scenario.PlannedStage;
import java.io.IOException;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * What a stage's running jobs' readings mean, tick by tick: a job that has accounted for every
 * message it was given (drained, its consumer perhaps still running), one whose consumer ended by
 * itself (its count reached, or its own timeout: its verification decides), one that failed (the
 * stage ends, naming its log), and a fed job that has more to read again. {@link StagedDriver}
 * decides from it when the stage's condition is met.
 */
final class RunningJobs {
  /** How the driver speaks: its voice and format. */
  @FunctionalInterface
  interface Voice {
    void say(String format, Object... args);
  }

  private final PlannedStage st;
  private final Voice voice;

  /** When each job drained (accounted for everything, or ended by itself), while it stays so. */
  private final Map<String, Instant> drainedAt = new LinkedHashMap<>();

  /** Jobs said to have accounted for everything while running (said once). */
  private final Set<String> caughtUp = new HashSet<>();

  /** Jobs whose consumer's end was seen and checked. */
  private final Set<String> exited = new HashSet<>();

  RunningJobs(PlannedStage st, Voice voice) {
    this.st = st;
    this.voice = voice;
  }

  /** The drained jobs and since when; the driver reads it live. */
  Map<String, Instant> drainedAt() {
    return drainedAt;
  }

  /**
   * Reads every running job once, at {@code nowInstant}; throws when a job's consumer failed or a
   * reading could not be taken, naming the stage.
   */
  void read(StageTarget.Segment segment, Instant nowInstant) throws Exception {
    for (String job : st.running()) {
      if (exited.contains(job)) {
        continue; // its end was seen and checked
      }
      StageTarget.JobReading reading;
      try {
        reading = segment.read(job);
      } catch (IOException e) {
        throw new IOException("stage " + st.name() + ": " + e.getMessage(), e);
      }
      OptionalInt exit = reading.exit();
      long expected = reading.expected();
      long accountedNow = reading.accountedFor();
      boolean shared = reading.shared();
      if (exit.isPresent()) {
        // Every exit is checked, also of a job already seen to have accounted for everything.
        exited.add(job);
        long accounted = accountedNow;
        if (exit.getAsInt() == ExitCodes.INCOMPLETE && accounted < expected) {
          // It stopped at its own timeout: not a failure of the run's machinery, so the job's
          // verification decides (what it left, what it lost, or that it cannot be known).
          voice.say(
              "Job %s's consumer stopped by itself (its timeout, or its source read in full and nothing more"
                  + " written) with %,d of %,d messages accounted for; its"
                  + " verification decides",
              job, accounted, expected);
          drainedAt.putIfAbsent(job, nowInstant);
          continue;
        }
        if (exit.getAsInt() != ExitCodes.OK || accounted < expected) {
          throw new IOException(
              String.format(
                  Locale.ROOT,
                  "stage %s: job %s's consumer ended (exit %d) with %,d of %,d messages accounted for; see %s",
                  st.name(),
                  job,
                  exit.getAsInt(),
                  accounted,
                  expected,
                  reading.log()));
        }
        if (drainedAt.putIfAbsent(job, nowInstant) == null) {
          voice.say(
              "Job %s has read every message of its subscription (%,d) and stopped", job, expected);
        }
      } else if (!drainedAt.containsKey(job) && accountedNow >= expected) {
        drainedAt.put(
            job, nowInstant); // every message written or dead-lettered; its consumer may still run
        if (caughtUp.add(job)) {
          voice.say(
              "Job %s has %s (%,d)",
              job,
              shared
                  ? "nothing left to read: its consumer group has accounted for every message of the topic"
                  : "accounted for every message of its subscription",
              expected);
        }
      } else if (drainedAt.containsKey(job) && accountedNow < expected) {
        // A fed job that caught up with its feed for a moment has more to read again: it is idle
        // only if it stays caught up, so what counts is its last stretch without anything to
        // read.
        drainedAt.remove(job);
      }
    }
  }
}
