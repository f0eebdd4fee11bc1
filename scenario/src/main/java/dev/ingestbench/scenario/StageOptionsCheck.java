package dev.ingestbench.scenario;

import dev.ingestbench.contracts.RateProfile;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * The checks of a stage's options, each problem named by its key: the faults it injects ({@code
 * kill_consumer_at}, {@code crash_every}, {@code kill_taskmanager_at}) and the live rate it steps
 * through ({@code live_profile}). Each must be well formed and fit in the stage as the file gives
 * it; whether it fits at a {@code --scale}, and whether a target can honour it, is checked where
 * the run is planned.
 */
final class StageOptionsCheck {
  /** Where a problem goes: its key ({@code stages[1].crash_every}) and what is wrong. */
  private final BiConsumer<String, String> problem;

  StageOptionsCheck(BiConsumer<String, String> problem) {
    this.problem = problem;
  }

  /** A kill's times: durations, and a crash interval a restored consumer can live through. */
  void faults(String key, Scenario.Stage st) {
    killTime(
        key,
        st,
        Scenario.Stage.KILL_CONSUMER_AT,
        st.killConsumerAt(),
        "the time into the stage at which every running job's consumer is killed");
    killTime(
        key,
        st,
        Scenario.Stage.KILL_TASKMANAGER_AT,
        st.killTaskManagerAt(),
        "the time after every running job has written at which a TaskManager is killed");
    killTime(
        key,
        st,
        Scenario.Stage.SAVEPOINT_AT,
        st.savepointAt(),
        "the time into the stage at which every running job's consumer is stopped with a savepoint"
            + " and started again from it");
    if (st.savepointAt() != null && (st.killConsumerAt() != null || st.crashEvery() != null)) {
      problem.accept(
          key + "." + Scenario.Stage.SAVEPOINT_AT,
          "a stage either stops its consumers with a savepoint or kills them: give savepoint_at or"
              + " kill_consumer_at/crash_every, each in a stage of its own");
    }
    if (st.crashEvery() != null) {
      var every = Durations.parse(st.crashEvery());
      if (every.isEmpty() || every.get().toSeconds() < StageFaults.MIN_CRASH_EVERY_SECONDS) {
        problem.accept(
            key + "." + Scenario.Stage.CRASH_EVERY,
            "'"
                + st.crashEvery()
                + "' is not a duration of "
                + StageFaults.MIN_CRASH_EVERY_SECONDS
                + " seconds or more (a restored consumer needs seconds to start and checkpoint"
                + " again); write e.g. 20s");
      } else if (longest(st).isPresent() && every.get().compareTo(longest(st).get()) >= 0) {
        problem.accept(
            key + "." + Scenario.Stage.CRASH_EVERY,
            st.crashEvery()
                + " is not within the stage, which lasts at most "
                + lasts(st)
                + ": no life would live that long in it to be killed; give a shorter interval");
      }
    }
  }

  /**
   * {@code live_profile}: steps of the scenario's live rate, so the scenario must publish live
   * messages, and the steps must fit in the stage.
   */
  void liveProfile(String key, Scenario.Stage st, Scenario.Publish publish) {
    if (st.liveProfile() == null) {
      return;
    }
    String field = key + "." + Scenario.Stage.LIVE_PROFILE;
    RateProfile profile;
    try {
      profile = RateProfile.parse(Scenario.Stage.LIVE_PROFILE, st.liveProfile());
    } catch (IllegalArgumentException e) {
      problem.accept(field, e.getMessage());
      return;
    }
    boolean live =
        publish != null
            && publish.messages() != null
            && (publish.backlog() == null ? 0 : publish.backlog()) < publish.messages()
            && publish.rate() != null
            && publish.rate() > 0;
    if (!live) {
      problem.accept(
          field,
          "steps the live rate (its 1x is publish.rate), and the scenario publishes no live"
              + " messages; give publish.rate and a backlog below publish.messages");
    }
    Duration steps = Duration.ofSeconds(profile.seconds());
    if (longest(st).isPresent() && steps.compareTo(longest(st).get()) > 0) {
      problem.accept(
          field,
          st.liveProfile()
              + " lasts "
              + Durations.show(steps)
              + ", longer than the stage, which lasts at most "
              + lasts(st)
              + ": its last steps would never come; give shorter steps or a longer stage");
    }
  }

  /** A kill's time: a duration of 1 second or more that comes before the stage ends. */
  private void killTime(String key, Scenario.Stage st, String field, String value, String meaning) {
    if (value == null) {
      return;
    }
    var at = Durations.parse(value);
    if (at.isEmpty() || at.get().toSeconds() < 1) {
      problem.accept(
          key + "." + field,
          "'" + value + "' is not a duration of 1 second or more; write e.g. 30s, " + meaning);
      return;
    }
    if (longest(st).isPresent() && at.get().compareTo(longest(st).get()) >= 0) {
      problem.accept(
          key + "." + field,
          value
              + " is not within the stage, which lasts at most "
              + lasts(st)
              + ": the kill would never come; give an earlier time");
    }
  }

  /** The longest the stage can last, as the file says ({@code hold}, or {@code max}). */
  private static Optional<Duration> longest(Scenario.Stage st) {
    String lasts = lasts(st);
    return lasts == null ? Optional.empty() : Durations.parse(lasts);
  }

  private static String lasts(Scenario.Stage st) {
    return st.hold() != null ? st.hold() : st.max();
  }
}
