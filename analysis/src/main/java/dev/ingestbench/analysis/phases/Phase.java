package dev.ingestbench.analysis.phases;

import java.time.Instant;

/**
 * A named stretch of a timeline: buckets {@code [fromIndex, toIndex)}, from {@code start} to {@code
 * end} (exclusive).
 */
public record Phase(String name, int fromIndex, int toIndex, Instant start, Instant end) {
  public int buckets() {
    return toIndex - fromIndex;
  }

  /**
   * What a detected phase is: {@code ramp-up}, {@code steady} (a level), {@code burst} or {@code
   * throttled} (the quota's sawtooth), {@code drain}; {@code given} for --phase.
   */
  public String kind() {
    for (String kind : new String[] {"ramp-up", "steady", "burst", "throttled", "drain"}) {
      if (name.contains(" " + kind) || name.equals(kind)) {
        return kind;
      }
    }
    return "given";
  }
}
