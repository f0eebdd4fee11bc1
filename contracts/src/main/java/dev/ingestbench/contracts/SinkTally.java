package dev.ingestbench.contracts;

import java.util.List;

/**
 * What a job's sink holds, as the local BigQuery counts it by event index: read from the emulator
 * itself ({@link EmulatorStatus.Job}) or as the job's consumer wrote it down when it stopped
 * ({@link ConsumerResult}). A job's verification is counted from this one tally, whichever way it
 * came.
 */
public interface SinkTally {
  /** Rows visible in the data tables, duplicates included. */
  long rowsWritten();

  /** Distinct event indexes among them. */
  long distinctMessageIds();

  /** Rows whose message was already visible. */
  long duplicates();

  /** Rows in the dead-letter tables. */
  long deadLettered();

  /** Distinct published messages written or dead-lettered. */
  long accountedFor();

  /** Visible rows whose content is not what their event index must produce. */
  long mismatchedRows();

  /** The first of them, column by column; null or empty when none. */
  List<String> mismatches();

  /** Rows of an event already visible under another message id (or Kafka offset). */
  long sourceDuplicates();

  /** The first mismatch, or null. */
  default String firstMismatch() {
    return mismatches() == null || mismatches().isEmpty() ? null : mismatches().get(0);
  }
}
