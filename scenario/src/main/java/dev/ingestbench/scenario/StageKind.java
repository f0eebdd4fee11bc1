package dev.ingestbench.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a stage does: start and stop jobs and hold or wait ({@link Jobs}), run a Pub/Sub load test
 * beside the jobs running ({@link LoadTest}), or search for the highest rate one job's settings
 * sustain ({@link MaxRateSearch}). Each target runs the kinds it can; the ones that start no job
 * are run by an executor of their kind.
 */
public sealed interface StageKind {

  /** The longest a stage of this kind lasts, {@code held} being its hold or {@code max}. */
  Duration longest(Duration held);

  /**
   * Starts and stops its jobs, then holds or waits until its condition: a scenario's usual stage.
   */
  record Jobs() implements StageKind {
    @Override
    public Duration longest(Duration held) {
      return held;
    }
  }

  /**
   * {@code pubsub_load}: {@code ingestbench pubsub-load} against the run's emulator, its flags as
   * the file writes them ({@code burn_in: 10s} is {@code --burn-in 10s}).
   */
  record LoadTest(Map<String, String> flags) implements StageKind {
    public LoadTest {
      flags = Collections.unmodifiableMap(new LinkedHashMap<>(flags)); // in the file's order
    }

    /** {@code ingestbench pubsub-load}'s flags for this stage, as written in the file. */
    public List<String> args() {
      List<String> args = new ArrayList<>();
      flags.forEach(
          (flag, value) -> {
            args.add("--" + flag.replace('_', '-'));
            args.add(value);
          });
      if (!flags.containsKey("rate")) {
        // A stage measures at one rate (as fast as the client takes when none is given); without
        // --rate the load test would search for the highest sustained rate instead.
        args.addAll(List.of("--rate", "0"));
      }
      return args;
    }

    /** Its burn-in and window, and the longest drain after them. */
    @Override
    public Duration longest(Duration held) {
      Duration burnIn =
          Durations.parse(flags.getOrDefault("burn_in", "10s")).orElse(Duration.ofSeconds(10));
      Duration window =
          Durations.parse(flags.getOrDefault("duration", "30s")).orElse(Duration.ofSeconds(30));
      return burnIn.plus(window).plusSeconds(70);
    }
  }

  /**
   * {@code find_max_rate}: the highest rate job {@code job}'s settings sustain ({@code round
   * --find-max-rate}), the search's settings as the file writes them ({@code latency_slo: 5s}).
   */
  record MaxRateSearch(String job, Map<String, String> settings) implements StageKind {
    // The search's timing, declared here for the plan (how long a stage can last) and for the
    // search itself (harness's RoundRateSearch, MaxRateSpec).
    public static final Duration DEFAULT_LATENCY_SLO = Duration.ofSeconds(10);
    public static final Duration DEFAULT_WINDOW = Duration.ofSeconds(20);
    public static final int DEFAULT_MAX_PROBES = 10;
    public static final int DEFAULT_CONFIRMATIONS = 1;

    /** A new rate's first seconds, not measured: the pipeline adjusts to it. */
    public static final Duration SETTLE = Duration.ofSeconds(5);

    /** The longest the jobs may take to start writing before the first probe. */
    public static final Duration WARM_UP_MAX = Duration.ofMinutes(5);

    /** The longest the jobs may take to catch up after a probe they did not sustain. */
    public static final Duration RECOVER_MAX = Duration.ofMinutes(3);

    public MaxRateSearch {
      settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings)); // in the file's order
    }

    /** {@code round}'s search flags, as written in the file. */
    public List<String> args() {
      List<String> args = new ArrayList<>(List.of("--find-max-rate"));
      settings.forEach(
          (key, value) -> {
            args.add("--" + key.replace('_', '-'));
            args.add(value);
          });
      return args;
    }

    /**
     * The consumers' warm-up, then every probe: settle, window, SLO, the longest catch-up; and a
     * minute to end.
     */
    @Override
    public Duration longest(Duration held) {
      long window = seconds(settings.get("probe_duration"), DEFAULT_WINDOW.toSeconds());
      long slo = seconds(settings.get("latency_slo"), DEFAULT_LATENCY_SLO.toSeconds());
      long probes = count(settings.get("max_probes"), DEFAULT_MAX_PROBES);
      long perProbe = SETTLE.toSeconds() + window + slo + RECOVER_MAX.toSeconds();
      return Duration.ofSeconds(WARM_UP_MAX.toSeconds() + probes * perProbe + 60);
    }

    private static long seconds(String duration, long absent) {
      return duration == null
          ? absent
          : Durations.parse(duration).map(d -> Math.max(1, d.toSeconds())).orElse(absent);
    }

    private static long count(String value, long absent) {
      try {
        return Long.parseLong(value);
      } catch (NumberFormatException e) {
        return absent;
      }
    }
  }
}
