package dev.ingestbench.consumer.rows;

import dev.ingestbench.events.MalformedEventException;
import java.util.BitSet;
import java.util.Map;

/**
 * Which published event indexes a local run's pipeline has read, so that the run can tell "every
 * message was read and nothing more is coming" from "still reading": a run that lost rows then ends
 * with its answer (lost N) within seconds of its last write, instead of idling to its timeout.
 *
 * <p>A local run's runner (embedded Flink) converts messages in the run's own JVM, where this is
 * read; elsewhere (Dataflow, a Flink cluster's TaskManagers) nothing enables it, and it costs one
 * volatile read per message. Distinct indexes, not a count: a redelivery, a replay after a restore
 * or an event the source carried twice is read once.
 */
public final class ReadIndexes {
  private static volatile BitSet read;
  private static long expected;
  private static long distinct;

  private ReadIndexes() {}

  /** Starts tracking indexes [0, {@code expected}) in this JVM, forgetting any earlier run's. */
  public static synchronized void track(long expected) {
    ReadIndexes.expected = expected;
    ReadIndexes.distinct = 0;
    read = expected > 0 && expected <= Integer.MAX_VALUE ? new BitSet((int) expected) : null;
  }

  /** Records that the pipeline read a message with these attributes. */
  static void record(Map<String, String> attributes) {
    BitSet bits = read;
    if (bits == null) {
      return;
    }
    Long index;
    try {
      index = MessageToRow.eventIndex(attributes);
    } catch (MalformedEventException e) {
      return; // no usable index: such a message never completes a run early
    }
    if (index == null || index < 0 || index >= expected) {
      return;
    }
    synchronized (ReadIndexes.class) {
      if (!bits.get(index.intValue())) {
        bits.set(index.intValue());
        distinct++;
      }
    }
  }

  /** Distinct tracked indexes read so far. */
  public static synchronized long distinct() {
    return distinct;
  }
}
