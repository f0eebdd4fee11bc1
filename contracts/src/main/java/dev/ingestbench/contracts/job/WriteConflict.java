package dev.ingestbench.contracts.job;

import java.util.ArrayList;
import java.util.List;

/**
 * A write setting that contradicts the write method. Each rule is here once; the consumer names the
 * setting by its Beam flag, a scenario by its YAML key, each in its own words.
 */
public enum WriteConflict {
  /** Connection pooling with exactly-once. */
  CONNECTION_POOL(
      WriteMethod.AT_LEAST_ONCE,
      "Beam pools connections only for at-least-once, whose default stream it multiplexes"),
  /** A number of write streams with at-least-once. */
  STREAMS(WriteMethod.EXACTLY_ONCE, "at-least-once always writes to the default stream"),
  /** A triggering frequency with at-least-once. */
  TRIGGERING_FREQUENCY(
      WriteMethod.EXACTLY_ONCE, "at-least-once appends rows as they arrive, never on a timer");

  private final WriteMethod needs;
  private final String why;

  WriteConflict(WriteMethod needs, String why) {
    this.needs = needs;
    this.why = why;
  }

  /** The write method the setting needs. */
  public WriteMethod needs() {
    return needs;
  }

  /** Why, in a clause that names no flag or key. */
  public String why() {
    return why;
  }

  /**
   * The settings that contradict {@code method}.
   *
   * @param streams null or 0: not set
   * @param triggeringFrequency null: not set
   */
  public static List<WriteConflict> of(
      WriteMethod method, boolean connectionPool, Integer streams, Integer triggeringFrequency) {
    List<WriteConflict> conflicts = new ArrayList<>();
    if (connectionPool && method != CONNECTION_POOL.needs) {
      conflicts.add(CONNECTION_POOL);
    }
    if (streams != null && streams != 0 && method != STREAMS.needs) {
      conflicts.add(STREAMS);
    }
    if (triggeringFrequency != null && method != TRIGGERING_FREQUENCY.needs) {
      conflicts.add(TRIGGERING_FREQUENCY);
    }
    return conflicts;
  }
}
