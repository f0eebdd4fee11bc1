package dev.ingestbench.analysis.phases;

import java.time.Instant;

/**
 * A named stretch of a timeline: buckets {@code [fromIndex, toIndex)}, from {@code start} to
 * {@code end} (exclusive).
 */
public record Phase(String name, int fromIndex, int toIndex, Instant start, Instant end) {
  public int buckets() {
    return toIndex - fromIndex;
  }
}
