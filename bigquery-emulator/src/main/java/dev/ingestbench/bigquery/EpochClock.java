package dev.ingestbench.bigquery;

/**
 * Turns the monotonic {@link System#nanoTime()} the limits count in into wall-clock epoch
 * milliseconds for the status, from one pair of readings taken together.
 */
record EpochClock(long baseNanos, long baseEpochMillis) {
  static EpochClock now() {
    return new EpochClock(System.nanoTime(), System.currentTimeMillis());
  }

  long epochMillis(long nanos) {
    return baseEpochMillis + Math.floorDiv(nanos - baseNanos, 1_000_000L);
  }
}
