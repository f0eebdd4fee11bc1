package dev.ingestbench.consumer.rows;

import dev.ingestbench.events.MalformedEventException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Which published event indexes a local run's pipeline has read, so that the run can tell "every
 * message was read and nothing more is coming" from "still reading": a run that lost rows then ends
 * with its answer (lost N) within seconds of its last write, instead of idling to its timeout.
 *
 * <p>A local run's runner (embedded Flink) converts messages in the run's own JVM, where this is
 * read; elsewhere (Dataflow, a Flink cluster's TaskManagers) nothing enables it, and it costs one
 * volatile read per message. Distinct indexes, not a count: a redelivery, a replay after a restore
 * or an event the source carried twice is read once. Bits are set without a lock (compare and set
 * on 64-bit words), so the task threads that record them never wait for each other.
 */
public final class ReadIndexes {
  /** What is tracked: null when nothing is. */
  private record Tracked(long expected, AtomicLongArray words, LongAdder distinct) {}

  private static volatile Tracked tracked;

  private ReadIndexes() {}

  /** Starts tracking indexes [0, {@code expected}) in this JVM, forgetting any earlier run's. */
  public static void track(long expected) {
    tracked =
        expected > 0 && expected <= Integer.MAX_VALUE
            ? new Tracked(
                expected, new AtomicLongArray((int) ((expected + 63) / 64)), new LongAdder())
            : null;
  }

  /** Records that the pipeline read a message with these attributes. */
  static void record(Map<String, String> attributes) {
    Tracked t = tracked;
    if (t == null) {
      return;
    }
    Long index;
    try {
      index = MessageToRow.eventIndex(attributes);
    } catch (MalformedEventException e) {
      return; // no usable index: such a message never completes a run early
    }
    if (index == null || index < 0 || index >= t.expected()) {
      return;
    }
    int word = (int) (index >>> 6);
    long bit = 1L << (index & 63);
    long before;
    do {
      before = t.words().get(word);
      if ((before & bit) != 0) {
        return;
      }
    } while (!t.words().compareAndSet(word, before, before | bit));
    t.distinct().increment();
  }

  /** Distinct tracked indexes read so far. */
  public static long distinct() {
    Tracked t = tracked;
    return t == null ? 0 : t.distinct().sum();
  }
}
