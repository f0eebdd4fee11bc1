package dev.ingestbench.harness.round;

import dev.ingestbench.contracts.WindowLatency;
import java.time.Duration;
import java.util.Locale;

/** Whether one job sustained a probe's rate, or why not: the rules docs/max-rate.md states. */
final class ProbeVerdict {
  static final String SUSTAINED = "sustained";

  private ProbeVerdict() {}

  /**
   * @param rate the rate asked
   * @param published what Pub/Sub acknowledged per second over the window
   * @param written what the job accounted for per second over the window
   * @param intended the job's visible − intended latency of the window's messages; null when none
   *     was visible
   * @param expected messages meant to be sent in the window
   * @param cut why the probe was cut short, or null
   */
  static String of(
      double rate,
      double published,
      double written,
      WindowLatency.Percentiles intended,
      long expected,
      Duration slo,
      String cut,
      double keptUp,
      double lateShare) {
    if (cut != null) {
      return cut;
    }
    if (published < keptUp * rate) {
      return String.format(Locale.ROOT, "the publisher sent %,.0f of %,.0f msg/s", published, rate);
    }
    if (written < keptUp * rate) {
      return String.format(Locale.ROOT, "the job wrote %,.0f of %,.0f rows/s", written, rate);
    }
    long visible = intended == null ? 0 : intended.samples();
    long late = Math.max(0, expected - visible);
    if (late > lateShare * expected) {
      return String.format(
          Locale.ROOT,
          "latency: %,d of the window's %,d messages were not visible within --latency-slo %,d ms",
          late,
          expected,
          slo.toMillis());
    }
    if (intended == null) {
      return "latency: no message of the window was visible within --latency-slo";
    }
    if (intended.p99Ms() > slo.toMillis()) {
      return String.format(
          Locale.ROOT,
          "latency: p99 %,d ms against the intended send time is above --latency-slo %,d ms",
          intended.p99Ms(),
          slo.toMillis());
    }
    return SUSTAINED;
  }
}
