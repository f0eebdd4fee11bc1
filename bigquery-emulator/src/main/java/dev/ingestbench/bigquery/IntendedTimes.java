package dev.ingestbench.bigquery;

import dev.ingestbench.contracts.SendSchedule;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The paced publisher's schedule ({@link SendSchedule}), step by step as it is given: when each
 * event index was meant to be sent. Indexes before the first step (a backlog, a publisher without a
 * schedule) have no intended time.
 *
 * <p>Steps are few and arrive before their rows, while every visible row looks one up: the steps
 * are kept as a sorted array replaced on each (rare) addition, so a lookup is a binary search that
 * allocates nothing.
 */
final class IntendedTimes {
  private volatile SendSchedule[] steps = new SendSchedule[0];

  synchronized void add(SendSchedule step) {
    List<SendSchedule> all = new ArrayList<>(List.of(steps));
    all.removeIf(s -> s.firstIndex() == step.firstIndex());
    all.add(step);
    all.sort(Comparator.comparingLong(SendSchedule::firstIndex));
    steps = all.toArray(new SendSchedule[0]);
  }

  /** Every step given so far, by first index. */
  List<SendSchedule> steps() {
    return List.of(steps);
  }

  boolean isEmpty() {
    return steps.length == 0;
  }

  /** When message {@code index} was meant to be sent, in epoch microseconds; -1 when unknown. */
  long intendedMicros(long index) {
    SendSchedule[] s = steps;
    int low = 0;
    int high = s.length - 1;
    int found = -1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (s[mid].firstIndex() <= index) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return found < 0 ? -1 : s[found].intendedMicros(index);
  }
}
