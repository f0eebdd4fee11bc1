package dev.ingestbench.harness.spec;

import dev.ingestbench.scenario.StageKind.MaxRateSearch;
import java.time.Duration;

/**
 * {@code round --find-max-rate}: how the search probes.
 *
 * @param latencySlo a rate is sustained only while the p99 of visible − intended send time stays
 *     within it; also how long each probe's messages are given to arrive before it is judged
 * @param window how long each probe is measured, after {@link MaxRateSearch#SETTLE}
 * @param maxProbes probes at most, confirmations included
 * @param confirmations probes of the answer's rate again once the bisection has converged, each of
 *     which must sustain it too
 */
public record MaxRateSpec(Duration latencySlo, Duration window, int maxProbes, int confirmations) {
  /**
   * A scenario stage's {@code find_max_rate} keys ({@code latency_slo}, {@code probe_duration},
   * {@code max_probes}, {@code confirm_probes}; the validator checked their form), defaults for the
   * rest; not yet validated.
   */
  public static MaxRateSpec of(java.util.Map<String, String> keys) {
    return new MaxRateSpec(
        duration(keys.get("latency_slo"), MaxRateSearch.DEFAULT_LATENCY_SLO),
        duration(keys.get("probe_duration"), MaxRateSearch.DEFAULT_WINDOW),
        keys.containsKey("max_probes")
            ? Integer.parseInt(keys.get("max_probes"))
            : MaxRateSearch.DEFAULT_MAX_PROBES,
        keys.containsKey("confirm_probes")
            ? Integer.parseInt(keys.get("confirm_probes"))
            : MaxRateSearch.DEFAULT_CONFIRMATIONS);
  }

  private static Duration duration(String text, Duration absent) {
    return text == null
        ? absent
        : dev.ingestbench.scenario.Durations.parse(text)
            .orElseThrow(() -> new IllegalArgumentException("'" + text + "' is not a duration"));
  }

  /** Every check, each naming the flag and the fix. */
  public MaxRateSpec validate() {
    if (latencySlo.compareTo(Duration.ofMillis(100)) < 0
        || latencySlo.compareTo(Duration.ofMinutes(10)) > 0) {
      throw new IllegalArgumentException(
          "--latency-slo "
              + latencySlo.toMillis()
              + " ms must be between 100ms and 10m, e.g. --latency-slo 10s");
    }
    if (window.compareTo(Duration.ofSeconds(5)) < 0
        || window.compareTo(Duration.ofMinutes(30)) > 0) {
      throw new IllegalArgumentException(
          "--probe-duration "
              + window.toSeconds()
              + " s must be between 5s and 30m: at least 5 one-second samples per probe");
    }
    if (maxProbes < 2 || maxProbes > 50) {
      throw new IllegalArgumentException("--max-probes " + maxProbes + " must be between 2 and 50");
    }
    if (confirmations < 0 || confirmations >= maxProbes) {
      throw new IllegalArgumentException(
          "--confirm-probes "
              + confirmations
              + " must be 0 or more and below --max-probes ("
              + maxProbes
              + ")");
    }
    return this;
  }
}
