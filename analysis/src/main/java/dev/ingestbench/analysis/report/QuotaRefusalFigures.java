package dev.ingestbench.analysis.report;

import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.RoundSummary;
import java.time.Instant;
import java.util.List;

/**
 * Which tier of the throughput quota refused what and when, from the emulator's status: its times
 * turned into seconds after the consumer started, as the report's other times are.
 */
final class QuotaRefusalFigures {
  private QuotaRefusalFigures() {}

  /** Every tier that refused at least one append; empty when none did or none was recorded. */
  static List<RoundSummary.QuotaRefusals> of(RoundAnalysis a) {
    if (a.emulator().isEmpty()) {
      return List.of();
    }
    Long start = startMillis(a.consumer(), a.emulator().get());
    if (start == null) {
      return List.of(); // no start to count seconds from (the verdicts still count by tier)
    }
    return a.emulator().get().quotaTiersOrEmpty().stream()
        .filter(t -> t.refusedAppends() > 0)
        .map(t -> of(t, start))
        .toList();
  }

  private static RoundSummary.QuotaRefusals of(EmulatorStatus.QuotaTier t, long startMs) {
    return new RoundSummary.QuotaRefusals(
        t.tier(),
        t.mbPerSecond(),
        t.windowSeconds(),
        t.refusedAppends(),
        t.refusedBytes() / 1e6,
        t.refusalWindows(),
        t.refusals().stream()
            .map(
                r ->
                    new RoundSummary.RefusalWindow(
                        seconds(r.firstRefusedMs(), startMs),
                        seconds(r.lastRefusedMs(), startMs),
                        seconds(r.refilledMs(), startMs),
                        r.appends()))
            .toList());
  }

  private static double seconds(long ms, long startMs) {
    return Math.round((ms - startMs) / 100.0) / 10.0;
  }

  /**
   * When the consumer started, epoch ms; the emulator's start when the consumer's result does not
   * say; null when neither does.
   */
  private static Long startMillis(ConsumerResult c, EmulatorStatus e) {
    for (String at : new String[] {c.startedAt(), e.startedAt()}) {
      try {
        if (at != null) {
          return Instant.parse(at).toEpochMilli();
        }
      } catch (RuntimeException notAnInstant) {
        // the next one
      }
    }
    return null;
  }
}
