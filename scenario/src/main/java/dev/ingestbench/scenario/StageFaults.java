package dev.ingestbench.scenario;

import java.time.Duration;

/**
 * The faults a stage injects into its running jobs, as {@code round --kill-consumer-at} and {@code
 * --crash-every} do into a round's: each consumer JVM killed (SIGKILL) and started again from its
 * last completed Flink checkpoint. Times count from the stage's start ({@code kill_consumer_at}) or
 * from when each life starts writing ({@code crash_every}); they are not scaled by {@code --scale}.
 *
 * @param killConsumerAt when to kill every running job's consumer once, or null
 * @param crashEvery kill each again this long after each life started writing, or null
 */
public record StageFaults(Duration killConsumerAt, Duration crashEvery) {
  /** A stage that injects nothing. */
  public static final StageFaults NONE = new StageFaults(null, null);

  /**
   * The shortest {@code crash_every}: a restored consumer needs seconds to start and checkpoint
   * again.
   */
  public static final long MIN_CRASH_EVERY_SECONDS = 5;

  /** Whether the stage kills its jobs' consumers (once, or again and again). */
  public boolean killsConsumers() {
    return killConsumerAt != null || crashEvery != null;
  }

  /**
   * The kills in the file's terms: {@code consumers killed: kill_consumer_at 30s, crash_every 20s}.
   */
  public String describe() {
    String at =
        killConsumerAt == null ? null : "kill_consumer_at " + Durations.show(killConsumerAt);
    String every = crashEvery == null ? null : "crash_every " + Durations.show(crashEvery);
    return "consumers killed: "
        + (at != null && every != null ? at + ", " + every : at != null ? at : every);
  }

  /** The stage key that asks for the kill, for messages: {@code kill_consumer_at}. */
  public String key() {
    return killConsumerAt != null ? "kill_consumer_at" : "crash_every";
  }
}
