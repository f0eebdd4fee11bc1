package dev.ingestbench.scenario;

import dev.ingestbench.contracts.StopMode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The checks of one stage's own keys: a load-test or max-rate stage's, how a stage stops its jobs
 * ({@code stop_with}) and how long it lasts ({@code hold}, or {@code until} and {@code max}). Each
 * problem goes to {@link ScenarioValidator}'s list, naming the key and the fix.
 */
final class StageKeyChecks {
  private final BiConsumer<String, String> problem;

  StageKeyChecks(BiConsumer<String, String> problem) {
    this.problem = problem;
  }

  /**
   * A load-test stage starts and stops no job and lasts as long as its test; its flags' values are
   * checked by the load test itself before the run starts.
   */
  void loadTest(String key, Scenario.Stage st) {
    onlyItsOwn(key, st, "a pubsub_load stage runs a load test");
    st.pubsubLoad()
        .forEach(
            (flag, value) -> {
              if (ScenarioValidator.LOAD_TEST_RESERVED.contains(flag)) {
                problem.accept(
                    key + "." + Scenario.Stage.PUBSUB_LOAD + "." + flag,
                    "is set by the runner (the run's emulator or project, its own topic and"
                        + " directory); remove it");
              } else if (!flag.matches("[a-z][a-z0-9_]*")) {
                problem.accept(
                    key + "." + Scenario.Stage.PUBSUB_LOAD + "." + flag,
                    "is not a flag name; write ingestbench pubsub-load's flags without the"
                        + " dashes, e.g. burn_in: 10s");
              } else if (value == null || value instanceof Map || value instanceof List) {
                problem.accept(
                    key + "." + Scenario.Stage.PUBSUB_LOAD + "." + flag,
                    "needs one value, e.g. rate: 20000");
              }
            });
  }

  /** The keys of a find_max_rate stage: the job, and round --find-max-rate's flags. */
  public static final Set<String> MAX_RATE_KEYS =
      Set.of("job", "latency_slo", "probe_duration", "max_probes", "confirm_probes");

  /**
   * A max-rate stage starts and stops no job of the scenario: it searches with the named job's
   * settings on servers of its own. Its values' ranges are checked by the search itself before the
   * run starts.
   */
  void maxRateSearch(String key, Scenario.Stage st, Set<String> jobs) {
    onlyItsOwn(key, st, "a find_max_rate stage runs a search");
    Object job = st.findMaxRate().get("job");
    if (job == null) {
      problem.accept(
          key + "." + Scenario.Stage.FIND_MAX_RATE + ".job",
          "missing; name the job whose settings to search, e.g. job: a");
    } else if (!jobs.contains(String.valueOf(job))) {
      problem.accept(
          key + "." + Scenario.Stage.FIND_MAX_RATE + ".job",
          "'" + job + "' is not a job; jobs are " + jobs);
    }
    st.findMaxRate()
        .forEach(
            (k, value) -> {
              if (!MAX_RATE_KEYS.contains(k)) {
                problem.accept(
                    key + "." + Scenario.Stage.FIND_MAX_RATE + "." + k,
                    "is not a key of find_max_rate; use " + new java.util.TreeSet<>(MAX_RATE_KEYS));
              } else if (value == null || value instanceof Map || value instanceof List) {
                problem.accept(
                    key + "." + Scenario.Stage.FIND_MAX_RATE + "." + k,
                    "needs one value, e.g. latency_slo: 10s");
              } else if ((k.equals("latency_slo") || k.equals("probe_duration"))
                  && Durations.parse(String.valueOf(value)).isEmpty()) {
                problem.accept(
                    key + "." + Scenario.Stage.FIND_MAX_RATE + "." + k,
                    "'" + value + "' is not a duration; write e.g. 500ms, 10s or 2m");
              } else if ((k.equals("max_probes") || k.equals("confirm_probes"))
                  && !String.valueOf(value).matches("[0-9]{1,3}")) {
                problem.accept(
                    key + "." + Scenario.Stage.FIND_MAX_RATE + "." + k,
                    "'" + value + "' is not a count, e.g. 10");
              }
            });
  }

  /** A stage that runs a test of its own ({@code what}) starts, stops and holds nothing. */
  private void onlyItsOwn(String key, Scenario.Stage st, String what) {
    if (st.start() != null
        || st.stop() != null
        || st.hold() != null
        || st.until() != null
        || st.max() != null
        || st.stopWith() != null
        || st.killConsumerAt() != null
        || st.crashEvery() != null
        || st.killTaskManagerAt() != null
        || st.liveProfile() != null
        || st.savepointAt() != null) {
      problem.accept(
          key,
          what
              + " and nothing else: move start, stop, stop_with, hold, until, max, kill_consumer_at,"
              + " crash_every, kill_taskmanager_at, savepoint_at and live_profile to a stage of"
              + " their own");
    }
  }

  void stopWith(String key, Scenario.Stage st) {
    if (st.stopWith() == null) {
      return;
    }
    if (StopMode.of(st.stopWith()).isEmpty()) {
      problem.accept(
          key + "." + Scenario.Stage.STOP_WITH,
          "'" + st.stopWith() + "' is not a way to stop a job; use " + StopMode.names());
    } else if (st.stop() == null || st.stop().isEmpty()) {
      problem.accept(
          key + "." + Scenario.Stage.STOP_WITH,
          "says how this stage's stop ends its jobs, and it stops none; add stop: [JOB] or remove"
              + " stop_with");
    }
  }

  void hold(String key, Scenario.Stage st) {
    if ((st.hold() == null) == (st.until() == null)) {
      problem.accept(
          key, "give hold (a duration, e.g. 10m) or until (steady or drained), one of the two");
    }
    if (st.hold() != null && Durations.parse(st.hold()).isEmpty()) {
      problem.accept(
          key + ".hold", "'" + st.hold() + "' is not a duration; write e.g. 90s, 15m or 1h");
    }
    if (st.until() != null && Until.of(st.until()).isEmpty()) {
      problem.accept(
          key + ".until", "'" + st.until() + "' is not a condition; use " + Until.words());
    }
    if (st.until() != null && (st.max() == null || Durations.parse(st.max()).isEmpty())) {
      problem.accept(key + ".max", "until needs the longest it may wait, e.g. max: 20m");
    }
  }
}
