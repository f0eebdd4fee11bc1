package dev.ingestbench.bigquery;

import dev.ingestbench.contracts.EmulatorStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * One append-throughput quota that refuses while it refills, as Beam's maintainers describe the
 * service's: "all append operations are rejected while a quota is being refilled" (apache/beam PR
 * #31837). A window starts with the first append after the previous one ended; its budget is the
 * rate times the window; an append the rest of the budget cannot pay is refused until the window
 * ends, nothing is charged for it, and the budget refills in full.
 *
 * <p>Each window in which it refused is kept as a refusal (when the first and the last append were
 * refused, when it refilled, how much), so a report can say which tier refused what and when. Not
 * thread-safe: {@link QuotaTiers} holds the lock.
 */
final class QuotaTier {
  /** Refusals kept in full; later ones are only counted (a long run of 10 s windows). */
  static final int MAX_REFUSALS_KEPT = 1_000;

  final String name;
  final double megabytesPerSecond;
  final double windowSeconds;
  private final long windowNanos;
  private final double budgetBytes;
  private final EpochClock clock;
  private boolean started;
  private long windowEnd;
  private double used;
  private long refusedAppends;
  private long refusedBytes;
  private final List<EmulatorStatus.QuotaRefusal> refusals = new ArrayList<>();
  private long refusalsNotKept;
  private long episodeFirst = -1;
  private long episodeLast;
  private long episodeAppends;
  private long episodeBytes;

  QuotaTier(String name, double megabytesPerSecond, double windowSeconds, EpochClock clock) {
    this.name = name;
    this.megabytesPerSecond = megabytesPerSecond;
    this.windowSeconds = windowSeconds;
    this.windowNanos = (long) (windowSeconds * 1e9);
    this.budgetBytes = megabytesPerSecond * 1e6 * windowSeconds;
    this.clock = clock;
  }

  /** Whether the window's budget can pay {@code bytes}; starts a new window when one ended. */
  boolean fits(long bytes, long nowNanos) {
    if (!started || nowNanos - windowEnd >= 0) {
      closeEpisode();
      started = true;
      windowEnd = nowNanos + windowNanos;
      used = 0;
    }
    // One append larger than a whole budget still passes once the budget is full.
    return used == 0 || used + bytes <= budgetBytes;
  }

  void charge(long bytes) {
    used += bytes;
  }

  /** Counts an append refused by this tier, in the refusal of the current window. */
  void refuse(long bytes, long nowNanos) {
    refusedAppends++;
    refusedBytes += bytes;
    if (episodeFirst < 0) {
      episodeFirst = nowNanos;
    }
    episodeLast = nowNanos;
    episodeAppends++;
    episodeBytes += bytes;
  }

  /** Seconds until this tier's budget refills. */
  double secondsToRefill(long nowNanos) {
    return Math.max(0, (windowEnd - nowNanos) / 1e9);
  }

  long refusedAppends() {
    return refusedAppends;
  }

  /** What this tier refused so far, the current window's refusal included. */
  EmulatorStatus.QuotaTier status() {
    List<EmulatorStatus.QuotaRefusal> all = new ArrayList<>(refusals);
    if (episodeFirst >= 0 && all.size() < MAX_REFUSALS_KEPT) {
      all.add(refusal());
    }
    return new EmulatorStatus.QuotaTier(
        name,
        megabytesPerSecond,
        windowSeconds,
        refusedAppends,
        refusedBytes,
        refusals.size() + refusalsNotKept + (episodeFirst >= 0 ? 1 : 0),
        List.copyOf(all));
  }

  private void closeEpisode() {
    if (episodeFirst < 0) {
      return;
    }
    if (refusals.size() < MAX_REFUSALS_KEPT) {
      refusals.add(refusal());
    } else {
      refusalsNotKept++;
    }
    episodeFirst = -1;
    episodeAppends = 0;
    episodeBytes = 0;
  }

  private EmulatorStatus.QuotaRefusal refusal() {
    return new EmulatorStatus.QuotaRefusal(
        clock.epochMillis(episodeFirst),
        clock.epochMillis(episodeLast),
        clock.epochMillis(windowEnd),
        episodeAppends,
        episodeBytes);
  }
}
