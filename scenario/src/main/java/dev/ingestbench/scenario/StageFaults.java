package dev.ingestbench.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The faults a stage injects into its running jobs, as {@code round --kill-consumer-at}, {@code
 * --crash-every} and {@code --kill-taskmanager-at} do into a round's: each consumer JVM killed
 * (SIGKILL) and started again from its last completed Flink checkpoint, or one TaskManager of the
 * run's Flink cluster killed, from which Flink restores the jobs that lost tasks. Times count from
 * the stage's start ({@code kill_consumer_at}), from when each life starts writing ({@code
 * crash_every}) or from when every running job has written ({@code kill_taskmanager_at}); they are
 * not scaled by {@code --scale}.
 *
 * @param killConsumerAt when to kill every running job's consumer once, or null
 * @param crashEvery kill each again this long after each life started writing, or null
 * @param killTaskManagerAt when to kill one TaskManager, counted from when every running job has
 *     written its first row, or null
 * @param savepointAt when to stop every running job's consumer with a savepoint (each once it has
 *     written) and start it again from it, or null
 */
public record StageFaults(
    Duration killConsumerAt,
    Duration crashEvery,
    Duration killTaskManagerAt,
    Duration savepointAt) {
  /** A stage that injects nothing. */
  public static final StageFaults NONE = new StageFaults(null, null, null, null);

  /**
   * The shortest {@code crash_every}: a restored consumer needs seconds to start and checkpoint
   * again.
   */
  public static final long MIN_CRASH_EVERY_SECONDS = 5;

  /** Whether the stage kills its jobs' consumers (once, or again and again). */
  public boolean killsConsumers() {
    return killConsumerAt != null || crashEvery != null;
  }

  /** Whether the stage kills a TaskManager of the run's Flink cluster. */
  public boolean killsTaskManager() {
    return killTaskManagerAt != null;
  }

  /** Whether the stage stops its jobs' consumers with a savepoint and restores them. */
  public boolean savesAndRestores() {
    return savepointAt != null;
  }

  /** Whether the stage injects any fault. */
  public boolean any() {
    return killsConsumers() || killsTaskManager() || savesAndRestores();
  }

  /**
   * The faults in the file's terms: {@code consumers killed: kill_consumer_at 30s, crash_every
   * 20s}, {@code a TaskManager killed: kill_taskmanager_at 20s}.
   */
  public String describe() {
    List<String> parts = new ArrayList<>();
    if (killsConsumers()) {
      String at =
          killConsumerAt == null
              ? null
              : Scenario.Stage.KILL_CONSUMER_AT + " " + Durations.show(killConsumerAt);
      String every =
          crashEvery == null ? null : Scenario.Stage.CRASH_EVERY + " " + Durations.show(crashEvery);
      parts.add(
          "consumers killed: "
              + (at != null && every != null ? at + ", " + every : at != null ? at : every));
    }
    if (killsTaskManager()) {
      parts.add(
          "a TaskManager killed: "
              + Scenario.Stage.KILL_TASKMANAGER_AT
              + " "
              + Durations.show(killTaskManagerAt));
    }
    if (savesAndRestores()) {
      parts.add(
          "consumers stopped with a savepoint and restored: "
              + Scenario.Stage.SAVEPOINT_AT
              + " "
              + Durations.show(savepointAt));
    }
    return String.join("; ", parts);
  }

  /** The stage key that asks for the consumer kill, for messages: {@code kill_consumer_at}. */
  public String key() {
    return killConsumerAt != null ? Scenario.Stage.KILL_CONSUMER_AT : Scenario.Stage.CRASH_EVERY;
  }
}
