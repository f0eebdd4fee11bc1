package dev.ingestbench.consumer.sink;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Verification of what became visible in the local tables: distinct event indexes, duplicates,
 * dead letters and end-to-end latency (publish to visible), without keeping the rows themselves.
 *
 * <p>One bit per event index, so a million-message round needs 125 KB, and latencies go into an
 * HDR histogram instead of a list.
 */
public final class WrittenRows {
  private static final int MAX_ERROR_SAMPLES = 100;

  private final BitSet written = new BitSet();
  private final BitSet deadLettered = new BitSet();
  private final Histogram latencyMillis = new Histogram(3_600_000L, 3);
  /** Only messages published after {@link #liveSinceMicros}: no time spent waiting in a backlog. */
  private final Histogram liveLatencyMillis = new Histogram(3_600_000L, 3);
  private long liveSinceMicros = Long.MAX_VALUE;
  private final List<String> deadLetterErrors = new ArrayList<>();
  private long rowsWritten;
  private long duplicates;
  private long unindexedRows;
  private long deadLetterRows;
  private long unindexedDeadLetters;

  synchronized void recordWritten(long[] eventIndexes, long[] publishMicros, int count, long nowMillis) {
    for (int i = 0; i < count; i++) {
      rowsWritten++;
      long index = eventIndexes[i];
      if (index == RowKeyScanner.ABSENT || index < 0 || index > Integer.MAX_VALUE) {
        unindexedRows++;
      } else if (written.get((int) index)) {
        duplicates++;
      } else {
        written.set((int) index);
      }
      if (publishMicros[i] != RowKeyScanner.ABSENT) {
        long latency = Math.max(0, Math.min(nowMillis - publishMicros[i] / 1000, 3_600_000L));
        latencyMillis.recordValue(latency);
        if (publishMicros[i] >= liveSinceMicros) {
          liveLatencyMillis.recordValue(latency);
        }
      }
    }
  }

  /** Messages published from now on count as live (the consumer is running when they arrive). */
  public synchronized void markLiveFrom(long epochMillis) {
    liveSinceMicros = epochMillis * 1_000L;
  }

  synchronized void recordDeadLetter(long eventIndex, String error) {
    deadLetterRows++;
    if (eventIndex == RowKeyScanner.ABSENT || eventIndex < 0 || eventIndex > Integer.MAX_VALUE) {
      unindexedDeadLetters++;
    } else {
      deadLettered.set((int) eventIndex);
    }
    if (deadLetterErrors.size() < MAX_ERROR_SAMPLES && error != null) {
      deadLetterErrors.add(error);
    }
  }

  /** A consistent copy of the counts, for progress lines and the final result. */
  public synchronized Snapshot snapshot() {
    BitSet accounted = (BitSet) written.clone();
    accounted.or(deadLettered);
    return new Snapshot(
        rowsWritten,
        written.cardinality(),
        duplicates,
        unindexedRows,
        deadLetterRows,
        deadLetterRows - unindexedDeadLetters,
        accounted.cardinality() + unindexedDeadLetters,
        latencyMillis.getTotalCount(),
        latencyMillis.getTotalCount() == 0 ? 0 : latencyMillis.getValueAtPercentile(50),
        latencyMillis.getTotalCount() == 0 ? 0 : latencyMillis.getValueAtPercentile(99),
        latencyMillis.getTotalCount() == 0 ? 0 : latencyMillis.getMaxValue(),
        liveLatencyMillis.getTotalCount(),
        liveLatencyMillis.getTotalCount() == 0 ? 0 : liveLatencyMillis.getValueAtPercentile(50),
        liveLatencyMillis.getTotalCount() == 0 ? 0 : liveLatencyMillis.getValueAtPercentile(99),
        List.copyOf(deadLetterErrors));
  }

  /**
   * @param rowsWritten rows visible in the data tables, duplicates included
   * @param distinctEventIndexes distinct event indexes among them
   * @param duplicates rows whose event index was already visible
   * @param unindexedRows rows without an event index (not checkable)
   * @param deadLetterRows rows in the dead-letter tables
   * @param deadLetteredIndexed dead-letter rows that carry an event index
   * @param accountedFor distinct messages either written or dead-lettered
   */
  public record Snapshot(
      long rowsWritten,
      long distinctEventIndexes,
      long duplicates,
      long unindexedRows,
      long deadLetterRows,
      long deadLetteredIndexed,
      long accountedFor,
      long latencySamples,
      long p50LatencyMs,
      long p99LatencyMs,
      long maxLatencyMs,
      long liveLatencySamples,
      long liveP50LatencyMs,
      long liveP99LatencyMs,
      List<String> deadLetterErrors) {}
}
