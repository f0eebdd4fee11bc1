package dev.ingestbench.bigquery;

import dev.ingestbench.contracts.DeadLetterSample;
import java.util.Arrays;

/**
 * The verification keys of a batch of rows: event indexes, publish times, message id hashes and,
 * for dead-letter tables, each row decoded in full. Parallel arrays, so a batch costs four
 * allocations.
 *
 * @param messageIds per row, a hash of its message id ({@link RowScanner#ABSENT}: none); null when
 *     no row has one
 * @param mismatches per row, what its content gets wrong ({@link RowContent}); null when every row
 *     is right or content is not checked
 * @param misroutes per row, which table it is in and which its event goes to ({@link
 *     dev.ingestbench.contracts.job.TableRouting}), null for a row where it belongs; the array is
 *     null when the rows' table is not checked
 * @param copies how many times the store keeps these rows: 1, or as a store fault injects it 0
 *     ({@code --fault discard=F}: acknowledged, never stored) or 2 ({@code duplicate=F})
 */
record VisibleRows(
    String job,
    long[] eventIndexes,
    long[] publishMicros,
    long[] messageIds,
    DeadLetterSample[] deadLetters,
    String[] mismatches,
    String[] misroutes,
    int count,
    int copies) {

  VisibleRows(
      String job,
      long[] eventIndexes,
      long[] publishMicros,
      DeadLetterSample[] deadLetters,
      int count) {
    this(job, eventIndexes, publishMicros, null, deadLetters, null, null, count, 1);
  }

  /** These rows as the store keeps them {@code copies} times. */
  VisibleRows stored(int copies) {
    return new VisibleRows(
        job,
        eventIndexes,
        publishMicros,
        messageIds,
        deadLetters,
        mismatches,
        misroutes,
        count,
        copies);
  }

  /** Rows {@code [from, from + length)} of this batch. */
  VisibleRows slice(int from, int length) {
    return new VisibleRows(
        job,
        Arrays.copyOfRange(eventIndexes, from, from + length),
        Arrays.copyOfRange(publishMicros, from, from + length),
        messageIds == null ? null : Arrays.copyOfRange(messageIds, from, from + length),
        deadLetters == null ? null : Arrays.copyOfRange(deadLetters, from, from + length),
        mismatches == null ? null : Arrays.copyOfRange(mismatches, from, from + length),
        misroutes == null ? null : Arrays.copyOfRange(misroutes, from, from + length),
        length,
        copies);
  }
}
