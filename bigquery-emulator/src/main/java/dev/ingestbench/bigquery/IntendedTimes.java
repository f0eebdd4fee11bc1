package dev.ingestbench.bigquery;

import dev.ingestbench.contracts.SendSchedule;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The paced publisher's schedule ({@link SendSchedule}), step by step as it is given: when each
 * event index was meant to be sent. Indexes before the first step (a backlog, a publisher without a
 * schedule) have no intended time.
 */
final class IntendedTimes {
  private final ConcurrentSkipListMap<Long, SendSchedule> steps = new ConcurrentSkipListMap<>();

  void add(SendSchedule step) {
    steps.put(step.firstIndex(), step);
  }

  /** Every step given so far, by first index. */
  java.util.List<SendSchedule> steps() {
    return java.util.List.copyOf(steps.values());
  }

  boolean isEmpty() {
    return steps.isEmpty();
  }

  /** When message {@code index} was meant to be sent, in epoch microseconds; -1 when unknown. */
  long intendedMicros(long index) {
    Map.Entry<Long, SendSchedule> step = steps.floorEntry(index);
    return step == null ? -1 : step.getValue().intendedMicros(index);
  }
}
