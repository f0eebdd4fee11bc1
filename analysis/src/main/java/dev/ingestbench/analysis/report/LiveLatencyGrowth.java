package dev.ingestbench.analysis.report;

import dev.ingestbench.contracts.LiveProfileResult;
import dev.ingestbench.contracts.WindowLatency;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Whether the jobs kept up with a live phase at one rate, from how their latency changed between
 * its two halves (by intended send time): a job that writes less than it is offered falls further
 * behind with every second, so the messages of the second half wait longer than those of the first.
 * At {@link RoundLiveVerdict#KEPT_UP} of the offered rate the wait grows by (1 / 0.95 - 1) of the
 * time between the halves: 263 ms over the 5 s between the halves of the default round's 10 s.
 *
 * <p>Each half's median is taken over tens of thousands of messages, so the flushes in which
 * exactly-once rows become visible (one or two a second) move it little: in two default rounds the
 * medians of the halves differed by -24 and +40 ms. The rows written per second over a window of a
 * few seconds move by a whole flush (±11% over 6 s), which is why the rate is not what decides.
 */
final class LiveLatencyGrowth {
  private LiveLatencyGrowth() {}

  /**
   * The verdict ({@code kept-up}, or {@code behind} for the caller to name the round's limit), or
   * none where a half has no latency for some job.
   */
  static Optional<RoundLiveVerdict> of(LiveProfileResult halves, double offered) {
    if (halves.steps().size() != 2) {
      return Optional.empty();
    }
    LiveProfileResult.Step first = halves.steps().get(0);
    LiveProfileResult.Step second = halves.steps().get(1);
    String worstJob = null;
    long worstFirst = 0;
    long worstSecond = 0;
    for (Map.Entry<String, WindowLatency> e : first.latencyByJob().entrySet()) {
      WindowLatency a = e.getValue();
      WindowLatency b = second.latencyByJob().get(e.getKey());
      if (!measured(a) || !measured(b)) {
        return Optional.empty();
      }
      long growth = b.intended().p50Ms() - a.intended().p50Ms();
      if (worstJob == null || growth > worstSecond - worstFirst) {
        worstJob = e.getKey();
        worstFirst = a.intended().p50Ms();
        worstSecond = b.intended().p50Ms();
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
    long growth = worstSecond - worstFirst;
    String evidence =
        String.format(
            Locale.ROOT,
            "the live latency (intended send -> visible, p50%s) was %,d ms for the messages of its"
                + " first %d s and %,d ms for those of its last %d s, %s%,d ms; a job writing %.0f%%"
                + " of the %,.0f msg/s offered would have added %,.0f ms over the %.0f s between"
                + " them",
            first.latencyByJob().size() > 1 ? ", job " + worstJob + ", the most grown" : "",
            worstFirst,
            (a.toEpochMs() - a.fromEpochMs()) / 1000,
            worstSecond,
            (b.toEpochMs() - b.fromEpochMs()) / 1000,
            growth >= 0 ? "+" : "-",
            Math.abs(growth),
            100 * RoundLiveVerdict.KEPT_UP,
            offered,
            allowedMs,
            apartSeconds);
    return Optional.of(new RoundLiveVerdict(growth <= allowedMs ? "kept-up" : "behind", evidence));
  }

  private static boolean measured(WindowLatency l) {
    return l != null && l.intended() != null && l.intended().samples() > 0;
  }
}
