package dev.ingestbench.harness.flink;

import java.util.function.LongSupplier;

/**
 * {@code --kill-taskmanager-at SECONDS}: one TaskManager killed (SIGKILL, as a worker machine
 * fails) that many seconds after every job wrote its first row, so the failure lands while the jobs
 * write, not during their submission. Flink restarts the jobs that lost tasks from their last
 * completed checkpoint; the cluster starts a fresh TaskManager in its place.
 */
public final class TaskManagerKill {
  /** What kills: the cluster's first TaskManager, replaced. */
  public interface Killer {
    void killTaskManager() throws Exception;
  }

  private final long afterNanos;
  private final LongSupplier clock;
  private long writingSince = -1;
  private boolean done;

  public TaskManagerKill(long afterSeconds, LongSupplier clock) {
    this.afterNanos = afterSeconds * 1_000_000_000L;
    this.clock = clock;
  }

  /**
   * @param everyJobWriting every job has written at least one row
   * @return true when this call killed
   */
  public boolean tick(boolean everyJobWriting, Killer killer) throws Exception {
    if (done || !everyJobWriting) {
      return false;
    }
    long now = clock.getAsLong();
    if (writingSince < 0) {
      writingSince = now;
    }
    if (now - writingSince < afterNanos) {
      return false;
    }
    done = true;
    killer.killTaskManager();
    return true;
  }
}
