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

  /** Visible rows in another of the job's tables than their event goes to. */
  long misroutedRows();

  /** The first of them: the table each is in and the one it belongs in; null or empty when none. */
  List<String> misroutes();

  /** The first misroute, or null. */
  default String firstMisroute() {
    return misroutes() == null || misroutes().isEmpty() ? null : misroutes().get(0);
  }

  /** The first mismatch, or null. */
  default String firstMismatch() {
    return mismatches() == null || mismatches().isEmpty() ? null : mismatches().get(0);
  }
}
