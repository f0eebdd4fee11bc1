package dev.ingestbench.cli;

import dev.ingestbench.harness.round.RoundFlags;
import dev.ingestbench.harness.spec.MaxRateSpec;
import dev.ingestbench.scenario.Durations;
import dev.ingestbench.scenario.StageKind.MaxRateSearch;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * {@code round --find-max-rate} and its flags: instead of a backlog and a fixed live rate, probe
 * live rates until the highest one every job sustains inside the latency SLO is found.
 */
final class MaxRateOptions {
  @Option(
      names = RoundFlags.FIND_MAX_RATE,
      description =
          "Find the highest live rate every job sustains: measure the publisher alone, then probe"
              + " rates (bisection) while the consumers run, each judged by throughput and by the"
              + " p99 of visible - intended send time against --latency-slo; --messages,"
              + " --live-messages and --live-rate do not apply (docs/max-rate.md).")
  boolean findMaxRate;

  @Option(
      names = RoundFlags.LATENCY_SLO,
      paramLabel = "DURATION",
      description =
          "With --find-max-rate: the p99 latency (visible - intended send time) a sustained rate"
              + " keeps within, e.g. 10s or 2500ms (default: 10s).")
  String latencySlo;

  @Option(
      names = RoundFlags.PROBE_DURATION,
      paramLabel = "DURATION",
      description =
          "With --find-max-rate: how long each probe is measured, after 5 s of settling (default:"
              + " 20s).")
  String probeDuration;

  @Option(
      names = RoundFlags.MAX_PROBES,
      paramLabel = "N",
      description = "With --find-max-rate: probes at most, confirmations included (default: 10).")
  Integer maxProbes;

  @Option(
      names = RoundFlags.CONFIRM_PROBES,
      paramLabel = "N",
      description =
          "With --find-max-rate: probes of the answer's rate again once the search has converged;"
              + " each must sustain it too (default: 1).")
  Integer confirmations;

  /** The search these flags describe, or null without --find-max-rate (its flags then refused). */
  MaxRateSpec spec() {
    if (!findMaxRate) {
      if (latencySlo != null
          || probeDuration != null
          || maxProbes != null
          || confirmations != null) {
        throw new IllegalArgumentException(
            "--latency-slo, --probe-duration, --max-probes and --confirm-probes are for"
                + " --find-max-rate; add it, or drop them");
      }
      return null;
    }
    return new MaxRateSpec(
            duration("--latency-slo", latencySlo, MaxRateSearch.DEFAULT_LATENCY_SLO),
            duration("--probe-duration", probeDuration, MaxRateSearch.DEFAULT_WINDOW),
            maxProbes == null ? MaxRateSearch.DEFAULT_MAX_PROBES : maxProbes,
            confirmations == null ? MaxRateSearch.DEFAULT_CONFIRMATIONS : confirmations)
        .validate();
  }

  private static Duration duration(String flag, String text, Duration absent) {
    if (text == null) {
      return absent;
    }
    return Durations.parse(text)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    flag + " " + text + " is not a duration; use e.g. 500ms, 10s or 2m"));
  }
}
