package dev.ingestbench.bigquery;

import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.DeadLetterSample;
import dev.ingestbench.contracts.WindowLatency;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Verification of what became visible in the local tables: distinct event indexes, duplicates, dead
 * letters and end-to-end latency (publish to visible), without keeping the rows themselves.
 *
 * <p>One bit per event index, so a million-message round needs 125 KB, and latencies go into HDR
 * histograms per second of publish time ({@link CatchUpLatency}) instead of a list.
 */
public final class WrittenRows {
  private static final int MAX_ERROR_SAMPLES = 100;

  /** Dead letters kept in full: their payloads can be large. */
  private static final int MAX_DEAD_LETTER_SAMPLES = 20;

  /**
   * What a sample keeps of a payload and an error: every consumer reads the status once a second,
   * and a dead letter may be a 10 MB message (20 samples of 9 MB were 240 MB of base64 before).
   */
  static final int SAMPLE_PAYLOAD_BYTES = 4_096;

  static final int SAMPLE_ERROR_CHARS = 2_000;

  private final BitSet written = new BitSet();
  private final BitSet deadLettered = new BitSet();
  private final FirstMessageIds messageIds = new FirstMessageIds();
  private final CatchUpLatency byPublishSecond = new CatchUpLatency();
  private final WindowLatencies byIntendedSecond = new WindowLatencies();
  private final List<String> deadLetterErrors = new ArrayList<>();
  private final List<DeadLetterSample> deadLetterSamples = new ArrayList<>();

  /** Mismatched rows described in full: the first few say what is wrong, column by column. */
  private static final int MAX_MISMATCH_SAMPLES = 10;

  private final List<String> mismatchSamples = new ArrayList<>();
  private long mismatchedRows;

  /** Rows in another table than their event's, the first few described. */
  private final List<String> misrouteSamples = new ArrayList<>();

  private long misroutedRows;

  /** Rows whose table was checked against their event's: the evidence the check ran. */
  private long routeCheckedRows;

  private long rowsWritten;
  private long duplicates;
  private long sourceDuplicates;
  private long unindexedRows;
  private long deadLetterRows;
  private long unindexedDeadLetters;

  /** Published indexes are [0, publishedMessages); 0 when not known. */
  private final long publishedMessages;

  private long foreignRows;

  public WrittenRows() {
    this(0);
  }

  /**
   * @param publishedMessages the publisher wrote event indexes [0, N): a row (or dead letter) with
   *     another index is foreign (a leftover of another run, a message someone else published) and
   *     counts neither as written nor as accounted for; 0 when the range is not known
   */
  public WrittenRows(long publishedMessages) {
    this.publishedMessages = publishedMessages;
  }

  /**
   * The largest index kept in bits when the published count is not known (a server on its own): one
   * bit per index, so a message claiming index 2,147,483,646 cannot make the verifier take 256 MB;
   * a larger index is counted as unindexed (handled, not verifiable), as an unreadable one is.
   */
  static final long UNKNOWN_RANGE = 1L << 27;

  private boolean foreign(long index) {
    return publishedMessages > 0
        && index != RowScanner.ABSENT
        && (index < 0 || index >= publishedMessages);
  }

  /** An index that cannot be verified: absent, negative, or beyond the range kept in bits. */
  private static boolean unindexed(long index) {
    return index == RowScanner.ABSENT || index < 0 || index >= UNKNOWN_RANGE;
  }

  synchronized void recordWritten(
      long[] eventIndexes, long[] publishMicros, int count, long nowMillis) {
    recordWritten(eventIndexes, publishMicros, null, count, nowMillis);
  }

  /**
   * Rows made visible; {@code mismatches[i]} says what row i's content gets wrong (null: nothing).
   */
  synchronized void recordWritten(
      long[] eventIndexes, long[] publishMicros, String[] mismatches, int count, long nowMillis) {
    recordWritten(eventIndexes, publishMicros, null, mismatches, null, count, nowMillis, null);
  }

  /**
   * As above; a message's first row also records its latency against the time {@code schedule}
   * meant it to be sent (null or without a step for it: not recorded); {@code messageIds} (null:
   * none) tells a row the sink wrote twice from an event the source carried twice; {@code
   * misroutes[i]} (null: none) says which table row i is in and which its event goes to.
   */
  synchronized void recordWritten(
      long[] eventIndexes,
      long[] publishMicros,
      long[] messageIds,
      String[] mismatches,
      String[] misroutes,
      int count,
      long nowMillis,
      IntendedTimes schedule) {
    for (int i = 0; i < count; i++) {
      if (mismatches != null && mismatches[i] != null) {
        mismatchedRows++;
        if (mismatchSamples.size() < MAX_MISMATCH_SAMPLES) {
          mismatchSamples.add("event_index " + eventIndexes[i] + ": " + mismatches[i]);
        }
      }
      if (misroutes != null && eventIndexes[i] >= 0) {
        routeCheckedRows++;
      }
      if (misroutes != null && misroutes[i] != null) {
        misroutedRows++;
        if (misrouteSamples.size() < MAX_MISMATCH_SAMPLES) {
          misrouteSamples.add("event_index " + eventIndexes[i] + ": " + misroutes[i]);
        }
      }
      rowsWritten++;
      long index = eventIndexes[i];
      if (foreign(index)) {
        foreignRows++;
      } else if (unindexed(index)) {
        unindexedRows++;
      } else if (written.get((int) index)) {
        long id = messageIds == null ? RowScanner.ABSENT : messageIds[i];
        if (this.messageIds.repeat((int) index, id) == FirstMessageIds.Repeat.SOURCE) {
          sourceDuplicates++;
        } else {
          duplicates++;
        }
      } else {
        written.set((int) index);
        this.messageIds.first((int) index, messageIds == null ? RowScanner.ABSENT : messageIds[i]);
        long intended = schedule == null ? -1 : schedule.intendedMicros(index);
        if (intended >= 0) {
          byIntendedSecond.record(
              intended, publishMicros[i] == RowScanner.ABSENT ? -1 : publishMicros[i], nowMillis);
        }
      }
      if (publishMicros[i] != RowScanner.ABSENT) {
        byPublishSecond.record(publishMicros[i], nowMillis);
      }
    }
  }

  synchronized void recordDeadLetter(long eventIndex, DeadLetterSample deadLetter) {
    String error = deadLetter == null ? null : deadLetter.error();
    deadLetterRows++;
    if (foreign(eventIndex)) {
      foreignRows++;
    } else if (unindexed(eventIndex)) {
      unindexedDeadLetters++;
    } else {
      deadLettered.set((int) eventIndex);
    }
    if (deadLetterErrors.size() < MAX_ERROR_SAMPLES && error != null) {
      deadLetterErrors.add(
          error.length() <= SAMPLE_ERROR_CHARS
              ? error
              : error.substring(0, SAMPLE_ERROR_CHARS) + "…");
    }
    if (deadLetterSamples.size() < MAX_DEAD_LETTER_SAMPLES && deadLetter != null) {
      deadLetterSamples.add(deadLetter.truncated(SAMPLE_PAYLOAD_BYTES, SAMPLE_ERROR_CHARS));
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
        accounted.cardinality(),
        List.copyOf(deadLetterErrors),
        List.copyOf(deadLetterSamples),
        foreignRows,
        unindexedDeadLetters,
        mismatchedRows,
        List.copyOf(mismatchSamples),
        sourceDuplicates,
        misroutedRows,
        List.copyOf(misrouteSamples),
        routeCheckedRows);
  }

  /**
   * The event indexes written or dead-lettered: what a run checks the source's leftovers against.
   */
  public synchronized BitSet accounted() {
    BitSet accounted = (BitSet) written.clone();
    accounted.or(deadLettered);
    return accounted;
  }

  /**
   * Publish-to-visible latency: of every row, of the rows published after the consumer had caught
   * up (the pipeline's own latency), and of those published before (time spent waiting).
   */
  public synchronized Latencies latencies() {
    Long caughtUp = byPublishSecond.caughtUpSecond();
    return new Latencies(
        byPublishSecond.all(),
        byPublishSecond.publishedFrom(caughtUp),
        byPublishSecond.publishedBefore(caughtUp),
        CatchUpLatency.isoSecond(caughtUp));
  }

  /** Visible − intended send time of every message a paced publisher scheduled; null: none. */
  public synchronized WindowLatency.Percentiles intendedLatency() {
    return byIntendedSecond.allIntended();
  }

  /** Latency of the messages meant to be sent in [{@code fromMs}, {@code toMs}). */
  public synchronized WindowLatency windowLatency(long fromMs, long toMs) {
    return byIntendedSecond.window(fromMs, toMs);
  }

  /** Latency summaries; each null when it has no samples. */
  public record Latencies(
      ConsumerResult.Latency all,
      ConsumerResult.Latency live,
      ConsumerResult.Latency backlog,
      String caughtUpAt) {}

  /**
   * @param rowsWritten rows visible in the data tables, duplicates included
   * @param distinctEventIndexes distinct event indexes among them
   * @param duplicates rows whose message was already visible: written twice by the sink (the same
   *     message id; or no id to tell)
   * @param unindexedRows rows without an event index, or with one below 0 or at least {@link
   *     #UNKNOWN_RANGE} when the published count is not known (not checkable)
   * @param deadLetterRows rows in the dead-letter tables
   * @param accountedFor distinct messages of the published range either written or dead-lettered; a
   *     dead letter without an event index is not among them (it matches no published message)
   * @param foreignRows rows and dead letters whose event index is outside the published range
   * @param unindexedDeadLetters dead letters without an event index
   * @param mismatchedRows visible rows whose content is not what their event index must produce
   * @param mismatches the first of them, column by column
   * @param sourceDuplicates rows whose event index was already visible under another message id:
   *     the source carried the event twice (a publisher's resend), not the sink's duplicate
   * @param misroutedRows visible rows in another of the job's tables than their event goes to
   * @param misroutes the first of them: the table each is in and the one it belongs in
   * @param routeCheckedRows visible rows whose table was checked (their table states a routing)
   */
  public record Snapshot(
      long rowsWritten,
      long distinctEventIndexes,
      long duplicates,
      long unindexedRows,
      long deadLetterRows,
      long accountedFor,
      List<String> deadLetterErrors,
      List<DeadLetterSample> deadLetterSamples,
      long foreignRows,
      long unindexedDeadLetters,
      long mismatchedRows,
      List<String> mismatches,
      long sourceDuplicates,
      long misroutedRows,
      List<String> misroutes,
      long routeCheckedRows) {}
}
