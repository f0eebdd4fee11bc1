package dev.ingestbench.scenario;

import dev.ingestbench.contracts.RateProfile;
import dev.ingestbench.contracts.StepStatus;
import dev.ingestbench.contracts.StopMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One stage, ready to run.
 *
 * @param index 0-based position
 * @param running the jobs running once the stage has started and stopped its jobs
 * @param hold how long it holds, or null with {@code until}
 * @param max the longest an {@code until} waits
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
    Map<String, String> pubsubLoad,
    StopMode stopWith,
    Map<String, String> findMaxRate,
    StageFaults faults,
    RateProfile liveProfile) {

  /** A stage that runs a Pub/Sub load test instead of starting and stopping jobs. */
  public boolean isLoadTest() {
    return !pubsubLoad.isEmpty();
  }

  /**
   * A stage that searches for the highest rate one job's configuration sustains ({@code round
   * --find-max-rate}) instead of starting and stopping jobs.
   */
  public boolean isMaxRateSearch() {
    return !findMaxRate.isEmpty();
  }

  /** The job whose configuration a max-rate stage searches. */
  public String maxRateJob() {
    return findMaxRate.get("job");
  }

  /** {@code round}'s search flags for a max-rate stage, as written in the file. */
  public List<String> maxRateArgs() {
    List<String> args = new ArrayList<>(List.of("--find-max-rate"));
    findMaxRate.forEach(
        (key, value) -> {
          if (!key.equals("job")) {
            args.add("--" + key.replace('_', '-'));
            args.add(value);
          }
        });
    return args;
  }

  /** {@code ingestbench pubsub-load}'s flags for this stage, as written in the file. */
  public List<String> loadTestArgs() {
    List<String> args = new ArrayList<>();
    pubsubLoad.forEach(
        (flag, value) -> {
          args.add("--" + flag.replace('_', '-'));
          args.add(value);
        });
    if (!pubsubLoad.containsKey("rate")) {
      // A stage measures at one rate (as fast as the client takes when none is given); without
      // --rate the load test would search for the highest sustained rate instead.
      args.addAll(List.of("--rate", "0"));
    }
    return args;
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
    if (isMaxRateSearch()) {
      // StepStatus.isMaxRateSearch recognises a max-rate stage by this beginning.
      return StepStatus.MAX_RATE + " " + maxRateJob() + " " + String.join(" ", maxRateArgs());
    }
    if (isLoadTest()) {
      // StepStatus.isLoadTest recognises a load-test stage by this beginning.
      return (StepStatus.LOAD_TEST + " " + String.join(" ", loadTestArgs())).trim();
    }
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

  /**
   * The longest it can last (a load test: its burn-in and window, and the longest drain after
   * them).
   */
  public Duration longest() {
    if (isMaxRateSearch()) {
      // The consumers' warm-up, then every probe: settle, window, SLO, the longest catch-up.
      long window = seconds(findMaxRate.get("probe_duration"), 20);
      long slo = seconds(findMaxRate.get("latency_slo"), 10);
      long probes =
          findMaxRate.containsKey("max_probes") ? intOr(findMaxRate.get("max_probes"), 10) : 10;
      return Duration.ofSeconds(300 + probes * (5 + window + slo + 180) + 60);
    }
    if (isLoadTest()) {
      Duration burnIn =
          Durations.parse(pubsubLoad.getOrDefault("burn_in", "10s")).orElse(Duration.ofSeconds(10));
      Duration window =
          Durations.parse(pubsubLoad.getOrDefault("duration", "30s"))
              .orElse(Duration.ofSeconds(30));
      return burnIn.plus(window).plusSeconds(70);
    }
    return hold != null ? hold : max;
  }

  private static long seconds(String duration, long absent) {
    return duration == null
        ? absent
        : Durations.parse(duration).map(d -> Math.max(1, d.toSeconds())).orElse(absent);
  }

  private static long intOr(String value, long absent) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      return absent;
    }
  }
}
