package dev.ingestbench.analysis.report;

import dev.ingestbench.contracts.LiveProfileResult;
import dev.ingestbench.contracts.WindowLatency;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Whether the jobs kept up with a live phase at one rate, from how their latency changed between
 * its two halves: a job that writes less than it is offered falls further behind with every second,
 * so the messages of the second half wait longer than those of the first. At {@link
 * RoundLiveVerdict#KEPT_UP} of the offered rate the wait grows by (1 / 0.95 - 1) of the time
 * between the halves: 211 ms over the 4 s between the halves of the default round's 10 s.
 *
 * <p>The latency is publish -> visible: a publisher late on its schedule offers less, which is not
 * the jobs falling behind. Each half's median is taken over its whole seconds, tens of thousands of
 * messages in a default round, so the flushes in which exactly-once rows become visible (one or two
 * a second) move it little: in two default rounds the medians of two halves differed by -24 and +40
 * ms. The rows written per second over a window of a few seconds move by a whole flush (±11% over 6
 * s), which is why the rate is not what decides.
 */
public final class LiveLatencyGrowth {
  /**
   * A half with fewer whole seconds is not judged: a second or two hold a few flushes, and where
   * they fall moves the median by hundreds of milliseconds.
   */
  public static final long MIN_HALF_SECONDS = 3;

  private LiveLatencyGrowth() {}

  /**
   * The verdict ({@code kept-up}, or {@code behind} for the caller to name the round's limit) from
   * the record's last two steps (the halves; a first step, if any, is the phase's first second,
   * left out), or none where a half is too short or has no latency for some job.
   */
  static Optional<RoundLiveVerdict> of(LiveProfileResult record, double offered) {
    List<LiveProfileResult.Step> steps = record.steps();
    if (steps.size() < 2) {
      return Optional.empty();
    }
    LiveProfileResult.Step first = steps.get(steps.size() - 2);
    LiveProfileResult.Step second = steps.get(steps.size() - 1);
    String worstJob = null;
    long worstGrowth = Long.MIN_VALUE;
    for (Map.Entry<String, WindowLatency> e : first.latencyByJob().entrySet()) {
      WindowLatency.Percentiles a = latency(e.getValue());
      WindowLatency.Percentiles b = latency(second.latencyByJob().get(e.getKey()));
      if (a == null
          || b == null
          || wholeSeconds(e.getValue()) < MIN_HALF_SECONDS
          || wholeSeconds(second.latencyByJob().get(e.getKey())) < MIN_HALF_SECONDS) {
        return Optional.empty();
      }
      if (b.p50Ms() - a.p50Ms() > worstGrowth) {
        worstJob = e.getKey();
        worstGrowth = b.p50Ms() - a.p50Ms();
      }
    }
    if (worstJob == null) {
      return Optional.empty();
    }
    WindowLatency a = first.latencyByJob().get(worstJob);
    WindowLatency b = second.latencyByJob().get(worstJob);
    double apartSeconds =
        ((b.fromEpochMs() + b.toEpochMs()) - (a.fromEpochMs() + a.toEpochMs())) / 2000.0;
    double allowedMs = 1000 * apartSeconds * (1 / RoundLiveVerdict.KEPT_UP - 1);
    String evidence =
        String.format(
            Locale.ROOT,
            "the live latency (%s -> visible, p50%s) was %,d ms for the messages meant to be"
                + " sent %s s into the live phase and %,d ms for those of %s s, %s%,d ms; a job"
                + " writing %.0f%% of the %,.0f msg/s offered would have added %,.0f ms over the"
                + " %.0f s between them",
            published(a) && published(b) ? "publish" : "intended send",
            first.latencyByJob().size() > 1 ? ", job " + worstJob + ", the most grown" : "",
            latency(a).p50Ms(),
            span(record, a),
            latency(b).p50Ms(),
            span(record, b),
            worstGrowth >= 0 ? "+" : "-",
            Math.abs(worstGrowth),
            100 * RoundLiveVerdict.KEPT_UP,
            offered,
            allowedMs,
            apartSeconds);
    return Optional.of(
        new RoundLiveVerdict(worstGrowth <= allowedMs ? "kept-up" : "behind", evidence));
  }

  /** Publish -> visible where recorded, else intended send -> visible; null without samples. */
  private static WindowLatency.Percentiles latency(WindowLatency l) {
    if (l == null) {
      return null;
    }
    WindowLatency.Percentiles p = published(l) ? l.published() : l.intended();
    return p != null && p.samples() > 0 ? p : null;
  }

  /** Whether {@link #latency} reads the publish times (the publisher recorded them). */
  private static boolean published(WindowLatency l) {
    return l.published() != null && l.published().samples() > 0;
  }

  private static long wholeSeconds(WindowLatency l) {
    return l == null ? 0 : (l.toEpochMs() - l.fromEpochMs()) / 1000;
  }

  /** "1-5": the window's seconds after the live phase began. */
  private static String span(LiveProfileResult record, WindowLatency l) {
    return String.format(
        Locale.ROOT,
        "%.0f-%.0f",
        (l.fromEpochMs() - record.startEpochMs()) / 1000.0,
        (l.toEpochMs() - record.startEpochMs()) / 1000.0);
  }
}
