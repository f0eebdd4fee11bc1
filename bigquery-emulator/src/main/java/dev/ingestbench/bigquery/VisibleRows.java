package dev.ingestbench.bigquery;

import java.util.Arrays;

/**
 * The verification keys of a batch of rows: event indexes, publish times and, for dead-letter
 * tables, the error each row records. Parallel arrays, so a batch costs three allocations.
 */
record VisibleRows(String job, long[] eventIndexes, long[] publishMicros, String[] errors, int count) {

  /** Rows {@code [from, from + length)} of this batch. */
  VisibleRows slice(int from, int length) {
    return new VisibleRows(
        job,
        Arrays.copyOfRange(eventIndexes, from, from + length),
        Arrays.copyOfRange(publishMicros, from, from + length),
        errors == null ? null : Arrays.copyOfRange(errors, from, from + length),
        length);
  }
}
