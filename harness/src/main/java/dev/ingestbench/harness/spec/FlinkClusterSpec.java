package dev.ingestbench.harness.spec;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the consumers run when not on embedded Flink: a Flink session cluster this run starts (one
 * JobManager, {@code workers} TaskManagers of {@code slots} slots), or one already running at
 * {@code master}; each job submitted with {@code parallelism}.
 *
 * @param master {@code HOST:PORT} of a running cluster's REST endpoint, or null to start one
 * @param parallelism each job's parallelism, or null for every slot of the cluster
 * @param taskHeapMb the heap each started TaskManager gives its tasks
 * @param killTaskManagerAt kill a TaskManager this many seconds after every job writes, or null
 */
public record FlinkClusterSpec(
    int workers,
    int slots,
    Integer parallelism,
    String master,
    int taskHeapMb,
    Long killTaskManagerAt) {
  // The cluster's flag names (round --runner flink-cluster, run --target flink), as constants an
  // annotation can name.
  public static final String RUNNER = "--runner";
  public static final String RUNNER_FLINK_CLUSTER = "flink-cluster";
  public static final String WORKERS = "--workers";
  public static final String SLOTS = "--slots";
  public static final String PARALLELISM = "--parallelism";
  public static final String FLINK_MASTER = "--flink-master";
  public static final String TASKMANAGER_HEAP = "--taskmanager-heap";
  public static final String KILL_TASKMANAGER_AT = "--kill-taskmanager-at";

  public static final int DEFAULT_WORKERS = 2;
  public static final int DEFAULT_SLOTS = 1;
  public static final int DEFAULT_TASK_HEAP_MB = 768;

  /** Each TaskManager is a JVM; more than this on one machine measures the machine, not Flink. */
  static final int MAX_WORKERS = 16;

  public boolean external() {
    return master != null;
  }

  /** The parallelism each job is submitted with. */
  public int jobParallelism() {
    return parallelism != null ? parallelism : workers * slots;
  }

  /** Every check; each names the flag and the fix. */
  public FlinkClusterSpec validate() {
    if (workers < 1 || workers > MAX_WORKERS) {
      throw new IllegalArgumentException(
          "--workers "
              + workers
              + " must be between 1 and "
              + MAX_WORKERS
              + " (each TaskManager is a JVM of its own)");
    }
    if (slots < 1) {
      throw new IllegalArgumentException("--slots " + slots + " must be 1 or more");
    }
    if (parallelism != null && parallelism < 1) {
      throw new IllegalArgumentException("--parallelism " + parallelism + " must be 1 or more");
    }
    if (!external() && parallelism != null && parallelism > workers * slots) {
      throw new IllegalArgumentException(
          "--parallelism "
              + parallelism
              + " needs "
              + parallelism
              + " slots, and "
              + slotsGiven()
              + ": raise --slots or lower --parallelism");
    }
    if (external() && !master.matches("[A-Za-z0-9.-]+:[0-9]{1,5}")) {
      throw new IllegalArgumentException(
          "--flink-master "
              + master
              + " is not HOST:PORT of a Flink REST endpoint, e.g. 127.0.0.1:8081");
    }
    if (killTaskManagerAt != null && killTaskManagerAt < 1) {
      throw new IllegalArgumentException(
          "--kill-taskmanager-at " + killTaskManagerAt + " must be 1 second or more");
    }
    if (killTaskManagerAt != null && external()) {
      throw new IllegalArgumentException(
          "--kill-taskmanager-at kills a TaskManager the round started: drop --flink-master");
    }
    if (taskHeapMb < 128) {
      throw new IllegalArgumentException(
          "--taskmanager-heap " + taskHeapMb + " must be 128 (MB) or more");
    }
    return this;
  }

  /**
   * Refuses {@code jobs} jobs running at once when a started cluster has fewer slots than they
   * need: a Flink job without slots waits for them forever. {@code what} names where the count
   * comes from ({@code --jobs 2}, {@code stages.a-and-b}).
   */
  public void requireSlotsFor(int jobs, String what) {
    int needed = jobs * jobParallelism();
    if (external() || needed <= workers * slots) {
      return;
    }
    throw new IllegalArgumentException(
        what
            + ": "
            + jobs
            + " jobs at once x --parallelism "
            + jobParallelism()
            + " need "
            + needed
            + " slots, and "
            + slotsGiven()
            + ": a job without slots waits forever; raise --slots (e.g. --slots "
            + (needed + workers - 1) / workers
            + " --parallelism "
            + jobParallelism()
            + ")");
  }

  /** {@code --workers 2 x --slots 1 give 2}: the slots a started cluster has. */
  private String slotsGiven() {
    return "--workers " + workers + " x --slots " + slots + " give " + workers * slots;
  }

  /** The flags that give this spec, for round.json's command line. */
  public List<String> asFlags() {
    List<String> flags = new ArrayList<>(List.of(RUNNER, RUNNER_FLINK_CLUSTER));
    if (external()) {
      flags.addAll(List.of(FLINK_MASTER, master));
    } else {
      flags.addAll(
          List.of(
              WORKERS,
              Integer.toString(workers),
              SLOTS,
              Integer.toString(slots),
              TASKMANAGER_HEAP,
              Integer.toString(taskHeapMb)));
    }
    if (parallelism != null) {
      flags.addAll(List.of(PARALLELISM, parallelism.toString()));
    }
    if (killTaskManagerAt != null) {
      flags.addAll(List.of(KILL_TASKMANAGER_AT, killTaskManagerAt.toString()));
    }
    return flags;
  }
}
