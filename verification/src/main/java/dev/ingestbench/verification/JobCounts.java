package dev.ingestbench.verification;

import dev.ingestbench.contracts.SinkTally;

/**
 * What one job was given in one stage (or round, or iteration) and what became of it, every figure
 * counted: nothing here is derived from an assumption about the others.
 *
 * @param stage the stage or iteration the figures belong to; null for a round
 * @param job the job's name
 * @param exactlyOnce whether the job promised exactly-once (duplicates then fail it)
 * @param published messages published to the job's subscription (or topic, for Kafka)
 * @param written rows visible in its tables, duplicates included
 * @param distinct distinct published messages among those rows
 * @param duplicates rows whose message was already visible: the sink wrote the same message twice
 * @param deadLettered rows in its dead-letter tables
 * @param accountedFor distinct published messages written or dead-lettered; a dead letter without
 *     an event index is never among them (it cannot be matched to a published message)
 * @param left published messages still in its subscription (or unread by its Kafka group) after it
 *     stopped, not among {@code accountedFor}: counted by reading them; null when not counted (what
 *     was published is not known, or the source could not be read)
 * @param unverified why the figures cannot decide loss (the job stopped at its timeout, the source
 *     could not be read); null when they can
 * @param mismatched visible rows whose content is not what their event index must produce (0 when
 *     the content was not checked)
 * @param firstMismatch what the first of them gets wrong, column by column; null when none
 * @param sourceDuplicates rows of an event already visible under another message id (or Kafka
 *     offset): the source carried the event twice; counted and explained, never the sink's fault
 * @param misrouted visible rows in another of the job's tables than their event goes to (0 when
 *     routing was not checked)
 * @param firstMisroute the first of them: the table it is in and the one it belongs in; null when
 *     none
 */
public record JobCounts(
    String stage,
    String job,
    boolean exactlyOnce,
    long published,
    long written,
    long distinct,
    long duplicates,
    long deadLettered,
    long accountedFor,
    Long left,
    String unverified,
    long mismatched,
    String firstMismatch,
    long sourceDuplicates,
    long misrouted,
    String firstMisroute) {

  /** Figures whose rows were not checked for their table. */
  public JobCounts(
      String stage,
      String job,
      boolean exactlyOnce,
      long published,
      long written,
      long distinct,
      long duplicates,
      long deadLettered,
      long accountedFor,
      Long left,
      String unverified,
      long mismatched,
      String firstMismatch,
      long sourceDuplicates) {
    this(
        stage,
        job,
        exactlyOnce,
        published,
        written,
        distinct,
        duplicates,
        deadLettered,
        accountedFor,
        left,
        unverified,
        mismatched,
        firstMismatch,
        sourceDuplicates,
        0,
        null);
  }

  /** Figures without source duplicates. */
  public JobCounts(
      String stage,
      String job,
      boolean exactlyOnce,
      long published,
      long written,
      long distinct,
      long duplicates,
      long deadLettered,
      long accountedFor,
      Long left,
      String unverified,
      long mismatched,
      String firstMismatch) {
    this(
        stage,
        job,
        exactlyOnce,
        published,
        written,
        distinct,
        duplicates,
        deadLettered,
        accountedFor,
        left,
        unverified,
        mismatched,
        firstMismatch,
        0);
  }

  /** Figures whose content was not checked (or held no mismatch). */
  public JobCounts(
      String stage,
      String job,
      boolean exactlyOnce,
      long published,
      long written,
      long distinct,
      long duplicates,
      long deadLettered,
      long accountedFor,
      Long left,
      String unverified) {
    this(
        stage,
        job,
        exactlyOnce,
        published,
        written,
        distinct,
        duplicates,
        deadLettered,
        accountedFor,
        left,
        unverified,
        0,
        null,
        0);
  }

  /**
   * A job's figures from what its sink holds: the one way every local job is counted, whether its
   * tally was read from the local BigQuery or written down by its consumer.
   *
   * @param accountedFor the tally's own, or what the job's Kafka consumer group accounted for
   *     together
   * @param left what it left in its source, or null when not counted
   */
  public static JobCounts of(
      String stage,
      String job,
      boolean exactlyOnce,
      long published,
      SinkTally tally,
      long accountedFor,
      Long left) {
    return new JobCounts(
        stage,
        job,
        exactlyOnce,
        published,
        tally.rowsWritten(),
        tally.distinctMessageIds(),
        tally.duplicates(),
        tally.deadLettered(),
        accountedFor,
        left,
        null,
        tally.mismatchedRows(),
        tally.firstMismatch(),
        tally.sourceDuplicates(),
        tally.misroutedRows(),
        tally.firstMisroute());
  }

  /** The same figures with {@code mismatched} rows of wrong content, the first described. */
  public JobCounts withMismatched(long mismatched, String firstMismatch) {
    return new JobCounts(
        stage,
        job,
        exactlyOnce,
        published,
        written,
        distinct,
        duplicates,
        deadLettered,
        accountedFor,
        left,
        unverified,
        mismatched,
        firstMismatch,
        sourceDuplicates,
        misrouted,
        firstMisroute);
  }

  /** The same figures with {@code sourceDuplicates} rows the source carried twice. */
  public JobCounts withSourceDuplicates(long sourceDuplicates) {
    return new JobCounts(
        stage,
        job,
        exactlyOnce,
        published,
        written,
        distinct,
        duplicates,
        deadLettered,
        accountedFor,
        left,
        unverified,
        mismatched,
        firstMismatch,
        sourceDuplicates,
        misrouted,
        firstMisroute);
  }

  /**
   * Published messages neither accounted for nor left: never clamped, so a negative number shows a
   * miscount instead of hiding it.
   */
  public long lost() {
    return published - accountedFor - (left == null ? 0 : left);
  }

  /** The same figures, marked as unable to decide loss for {@code reason}. */
  public JobCounts unverified(String reason) {
    return new JobCounts(
        stage,
        job,
        exactlyOnce,
        published,
        written,
        distinct,
        duplicates,
        deadLettered,
        accountedFor,
        left,
        reason,
        mismatched,
        firstMismatch,
        sourceDuplicates,
        misrouted,
        firstMisroute);
  }
}
