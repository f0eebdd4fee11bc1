package dev.ingestbench.bigquery;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Rows as they become visible, verified per job ({@link WrittenRows}): every job of a multi-job
 * round writes every message once, so duplicates are counted within a job, never across jobs.
 */
final class Verification implements WriteStreamState.Visibility {
  private final Map<String, WrittenRows> byJob = new ConcurrentHashMap<>();

  /** When a paced publisher meant each message to be sent, as it says step by step. */
  final IntendedTimes intendedTimes = new IntendedTimes();

  /** Event indexes [0, N) were published; 0: not known, every index counts. */
  private volatile long publishedMessages;

  /**
   * Set before the first row arrives: rows outside the range are counted as foreign from then on.
   */
  void publishedMessages(long n) {
    publishedMessages = n;
  }

  /** Rows acknowledged and never stored ({@code --fault discard=F}). */
  private final AtomicLong rowsDiscarded = new AtomicLong();

  /** Rows stored a second time ({@code --fault duplicate=F}). */
  private final AtomicLong rowsDuplicated = new AtomicLong();

  long rowsDiscarded() {
    return rowsDiscarded.get();
  }

  long rowsDuplicated() {
    return rowsDuplicated.get();
  }

  /** Rows altered by the store ({@code --fault corrupt=F}). */
  private final AtomicLong rowsCorrupted = new AtomicLong();

  void rowCorrupted() {
    rowsCorrupted.incrementAndGet();
  }

  long rowsCorrupted() {
    return rowsCorrupted.get();
  }

  /**
   * The seed every published event was generated with: rows are checked against it; null: not
   * checked.
   */
  private volatile Long contentSeed;

  void contentSeed(Long seed) {
    contentSeed = seed;
  }

  Long contentSeed() {
    return contentSeed;
  }

  /**
   * The rows as the store keeps them: once, or as often as a store fault says ({@link
   * VisibleRows#copies}).
   */
  @Override
  public void rowsVisible(WriteStreamState stream, VisibleRows rows) {
    if (rows.copies() == 0) {
      rowsDiscarded.addAndGet(rows.count());
    } else if (rows.copies() > 1) {
      rowsDuplicated.addAndGet((long) rows.count() * (rows.copies() - 1));
    }
    for (int copy = 0; copy < rows.copies(); copy++) {
      store(stream, rows);
    }
  }

  private void store(WriteStreamState stream, VisibleRows rows) {
    WrittenRows written =
        byJob.computeIfAbsent(rows.job(), j -> new WrittenRows(publishedMessages));
    if (stream.table.isDeadLetterTable()) {
      for (int i = 0; i < rows.count(); i++) {
        written.recordDeadLetter(
            rows.eventIndexes()[i], rows.deadLetters() == null ? null : rows.deadLetters()[i]);
      }
    } else {
      written.recordWritten(
          rows.eventIndexes(),
          rows.publishMicros(),
          rows.messageIds(),
          rows.mismatches(),
          rows.misroutes(),
          rows.count(),
          System.currentTimeMillis(),
          intendedTimes.isEmpty() ? null : intendedTimes);
    }
  }

  /** Every job that has written a row, by name. */
  Map<String, WrittenRows> jobs() {
    return new TreeMap<>(byJob);
  }
}
