package dev.ingestbench.publisher;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/** A half-open range [start, end) of event indexes that one publishing shard publishes. */
public record EventRange(long start, long end) implements Serializable {

  public long size() {
    return end - start;
  }

  /**
   * Splits [first, first + total) into {@code shards} contiguous ranges whose sizes differ by at
   * most one.
   */
  public static List<EventRange> split(long first, long total, int shards) {
    List<EventRange> ranges = new ArrayList<>(shards);
    long start = first;
    for (int i = 0; i < shards; i++) {
      long end = start + total / shards + (i < total % shards ? 1 : 0);
      if (end > start) {
        ranges.add(new EventRange(start, end));
      }
      start = end;
    }
    return ranges;
  }
}
