package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.PublisherResult;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The live phase's own verdict ({@code summary.json}'s {@code live_limited_by}): whether the jobs
 * kept up with the rate the live publisher offered, from whether their latency grew between the
 * phase's two halves ({@link LiveLatencyGrowth}) or, in a round that did not record the halves,
 * from what they wrote while it published; with the headroom the backlog's drain showed; or, when
 * they fell behind, what limited them (the round's limit, {@link RoundLimit}). A round without live
 * traffic has none.
 *
 * @param name {@code kept-up}, {@code unknown} when the evidence cannot tell, or the limit's name
 *     when the jobs fell behind
 * @param evidence the figures: the latency of each half or the offered and written rates, the
 *     headroom
 */
public record RoundLiveVerdict(String name, String evidence) {
  /** The jobs kept up when they wrote this share of what was published, as a probe's rule. */
  static final double KEPT_UP = 0.95;

  /**
   * Seconds at each end of the live publisher's run left out: the first while its rate and the
   * jobs' reading settle, the last while the rows of its last seconds become visible.
   */
  static final int EDGE_SECONDS = 3;

  static Optional<RoundLiveVerdict> of(RoundAnalysis a, RoundLimit limit) {
    Optional<PublisherResult> live =
        a.publishers().stream().filter(p -> p.ratePerSecondTarget() > 0).findFirst();
    // A stepped rate is judged step by step in the report's live profile, not as one average.
    if (a.fed() || a.liveProfile().isPresent() || live.isEmpty() || live.get().published() == 0) {
      return Optional.empty();
    }
    PublisherResult p = live.get();
    Optional<RoundLiveVerdict> byLatency =
        a.liveHalves().flatMap(h -> LiveLatencyGrowth.of(h, p.messagesPerSecond()));
    if (byLatency.isPresent()) {
      RoundLiveVerdict v = byLatency.get();
      return Optional.of(
          v.name().equals("kept-up")
              ? new RoundLiveVerdict(
                  v.name(),
                  v.evidence() + headroom(a, p.messagesPerSecond(), Instant.parse(p.startedAt())))
              : new RoundLiveVerdict(
                  limit.name(),
                  "fell behind: "
                      + v.evidence()
                      + "; limited as the round was: "
                      + limit.evidence()));
    }
    ConsumerResult.Latency latency = a.liveLatency();
    // The window is the publisher's own (not moved by the latency: a job falling behind has a
    // growing latency, and the burst after the publisher stopped is its catching up, not keeping
    // up), so rows that take more than a few seconds to be appended count as behind.
    Instant published = Instant.parse(p.startedAt());
    Instant start = ceilSecond(published.plusSeconds(EDGE_SECONDS));
    Instant end =
        ceilSecond(published.plusMillis((long) (p.seconds() * 1000)).minusSeconds(EDGE_SECONDS));
    List<Bucket> buckets = a.perSecond().buckets();
    // Whole seconds [start, end): the window's length, not its buckets' (a second in which nothing
    // was appended has none).
    long seconds = end.getEpochSecond() - start.getEpochSecond();
    if (seconds < 5) {
      return Optional.of(
          new RoundLiveVerdict(
              "unknown",
              String.format(
                  Locale.ROOT,
                  "the live publisher ran %.0f s: too briefly to tell whether the jobs kept up"
                      + " (publish live traffic for longer: --live-messages)",
                  p.seconds())));
    }
    // Each job reads every message, but the jobs of one shared Kafka consumer group share them.
    boolean shared = a.round().map(r -> "shared".equals(r.consumerGroups())).orElse(false);
    int copies = shared ? 1 : Math.max(1, a.jobs());
    double written = rate(buckets, start, end, copies);
    double offered = p.messagesPerSecond();
    // Exactly-once rows become visible in flushes, one or two a second: a window of a few seconds
    // holds a flush more or less depending on where its edges fall. The verdict stands only where
    // the window a second shorter at either end gives the same one.
    double later = rate(buckets, start.plusSeconds(1), end, copies);
    double earlier = rate(buckets, start, end.minusSeconds(1), copies);
    boolean keptUp = written >= KEPT_UP * offered;
    if ((later >= KEPT_UP * offered) != keptUp || (earlier >= KEPT_UP * offered) != keptUp) {
      return Optional.of(
          new RoundLiveVerdict(
              "unknown",
              String.format(
                  Locale.ROOT,
                  "the jobs wrote %,.0f rows/s%s of the %,.0f msg/s the live publisher offered"
                      + " over %d s of its %.0f s, but %,.0f and %,.0f with the window a second"
                      + " shorter"
                      + " at either end: the rows became visible in lumps, so %d s cannot tell"
                      + " whether the jobs kept up (publish live traffic for longer:"
                      + " --live-messages)",
                  written,
                  copies > 1 ? " each on average" : "",
                  offered,
                  seconds,
                  p.seconds(),
                  later,
                  earlier,
                  seconds)));
    }
    String writtenLine =
        String.format(
            Locale.ROOT,
            "the jobs wrote %,.0f rows/s%s of the %,.0f msg/s the live publisher offered (%.0f%%,"
                + " over %d s of its %.0f s)%s",
            written,
            copies > 1 ? " each on average" : "",
            offered,
            100 * written / offered,
            seconds,
            p.seconds(),
            latency == null
                ? ""
                : String.format(Locale.ROOT, ", live latency p99 %,d ms", latency.p99Ms()));
    if (keptUp) {
      return Optional.of(
          new RoundLiveVerdict("kept-up", writtenLine + headroom(a, offered, start)));
    }
    return Optional.of(
        new RoundLiveVerdict(
            limit.name(),
            "fell behind: " + writtenLine + "; limited as the round was: " + limit.evidence()));
  }

  /**
   * "; headroom 8.1x: the backlog drained at 8,100 rows/s before" when the steady window (the
   * pipeline's capacity) was the backlog's drain, before the live phase.
   */
  private static String headroom(RoundAnalysis a, double offered, Instant liveStart) {
    if (a.steady().isEmpty()
        || !a.steady().get().end().isBefore(liveStart)
        || Double.isNaN(a.steadyRowsPerSecond().mean())) {
      return "; headroom not measured (no steady drain of a backlog before the live phase)";
    }
    boolean shared = a.round().map(r -> "shared".equals(r.consumerGroups())).orElse(false);
    double capacity = a.steadyRowsPerSecond().mean() / (shared ? 1 : Math.max(1, a.jobs()));
    return String.format(
        Locale.ROOT,
        "; headroom %.1fx: the backlog drained at %,.0f rows/s%s before it",
        capacity / offered,
        capacity,
        shared || a.jobs() <= 1 ? "" : " per job");
  }

  /** Rows per second and job written in the whole seconds {@code [from, to)}. */
  private static double rate(List<Bucket> buckets, Instant from, Instant to, int copies) {
    long rows =
        buckets.stream()
            .filter(b -> !b.start().isBefore(from) && b.start().isBefore(to))
            .mapToLong(Bucket::rows)
            .sum();
    return rows / (double) (to.getEpochSecond() - from.getEpochSecond()) / copies;
  }

  /** {@code t} rounded up to a whole second (the timeline's buckets start on them). */
  private static Instant ceilSecond(Instant t) {
    return t.getNano() == 0 ? t : Instant.ofEpochSecond(t.getEpochSecond() + 1);
  }
}
