package dev.ingestbench.bigquery;

import dev.ingestbench.contracts.DeadLetterSample;
import java.util.Arrays;

/**
 * The verification keys of a batch of rows: event indexes, publish times and, for dead-letter
 * tables, each row decoded in full. Parallel arrays, so a batch costs three allocations.
 */
record VisibleRows(String job, long[] eventIndexes, long[] publishMicros, DeadLetterSample[] deadLetters, int count) {

  /** Rows {@code [from, from + length)} of this batch. */
  VisibleRows slice(int from, int length) {
    return new VisibleRows(
        job,
        Arrays.copyOfRange(eventIndexes, from, from + length),
        Arrays.copyOfRange(publishMicros, from, from + length),
        deadLetters == null ? null : Arrays.copyOfRange(deadLetters, from, from + length),
        length);
  }
}
