package dev.ingestbench.analysis.model;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * A write timeline as a gap-free series of equal buckets: the rows of the view summed over the
 * tables and stream types selected, with empty buckets filled in so a stall shows as a zero.
 */
public final class Timeline {
  private final List<Bucket> buckets;
  private final int bucketSeconds;

  private Timeline(List<Bucket> buckets, int bucketSeconds) {
    this.buckets = List.copyOf(buckets);
    this.bucketSeconds = bucketSeconds;
  }

  /** Sums {@code rows} accepted by {@code filter} into buckets of {@code bucketSeconds}. */
  public static Timeline of(
      List<TimelineRow> rows, int bucketSeconds, Predicate<TimelineRow> filter) {
    Map<Long, long[]> sums = new TreeMap<>();
    for (TimelineRow row : rows) {
      if (!filter.test(row)) {
        continue;
      }
      long epoch = row.start().getEpochSecond();
      long bucket = epoch - Math.floorMod(epoch, bucketSeconds);
      long[] s = sums.computeIfAbsent(bucket, k -> new long[4]);
      if (row.isError()) {
        s[3] += row.totalRows();
      } else {
        s[0] += row.totalRows();
        s[1] += row.totalInputBytes();
      }
      s[2] += row.totalRequests();
    }
    List<Bucket> buckets = new ArrayList<>();
    Long previous = null;
    for (Map.Entry<Long, long[]> entry : sums.entrySet()) {
      if (previous != null) {
        for (long t = previous + bucketSeconds; t < entry.getKey(); t += bucketSeconds) {
          buckets.add(new Bucket(Instant.ofEpochSecond(t), bucketSeconds, 0, 0, 0, 0));
        }
      }
      long[] s = entry.getValue();
      buckets.add(
          new Bucket(Instant.ofEpochSecond(entry.getKey()), bucketSeconds, s[0], s[1], s[2], s[3]));
      previous = entry.getKey();
    }
    return new Timeline(buckets, bucketSeconds);
  }

  /** A timeline of buckets already made (e.g. a slice of another). */
  public static Timeline ofBuckets(List<Bucket> buckets, int bucketSeconds) {
    return new Timeline(buckets, bucketSeconds);
  }

  /** Successful appends to data tables: the throughput a round reports. */
  public static Predicate<TimelineRow> dataTables() {
    return row -> !row.isDeadLetterTable();
  }

  public List<Bucket> buckets() {
    return buckets;
  }

  public int bucketSeconds() {
    return bucketSeconds;
  }

  public boolean isEmpty() {
    return buckets.isEmpty();
  }

  public long totalRows() {
    return buckets.stream().mapToLong(Bucket::rows).sum();
  }

  /** The buckets from index {@code from} (inclusive) to {@code to} (exclusive). */
  public List<Bucket> slice(int from, int to) {
    return buckets.subList(from, to);
  }
}
