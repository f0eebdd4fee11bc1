package dev.ingestbench.bigquery;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Rows as they become visible, verified per job ({@link WrittenRows}): every job of a multi-job round
 * writes every message once, so duplicates are counted within a job, never across jobs.
 */
final class Verification implements WriteStreamState.Visibility {
  private final Map<String, WrittenRows> byJob = new ConcurrentHashMap<>();

  @Override
  public void rowsVisible(WriteStreamState stream, VisibleRows rows) {
    WrittenRows written = byJob.computeIfAbsent(rows.job(), j -> new WrittenRows());
    if (stream.table.isDeadLetterTable()) {
      for (int i = 0; i < rows.count(); i++) {
        written.recordDeadLetter(rows.eventIndexes()[i], rows.deadLetters() == null ? null : rows.deadLetters()[i]);
      }
    } else {
      written.recordWritten(rows.eventIndexes(), rows.publishMicros(), rows.count(), System.currentTimeMillis());
    }
  }

  /** Every job that has written a row, by name. */
  Map<String, WrittenRows> jobs() {
    return new TreeMap<>(byJob);
  }
}
