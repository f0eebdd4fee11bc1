package dev.ingestbench.cli;

import dev.ingestbench.harness.spec.FlinkClusterSpec;
import picocli.CommandLine.Option;

/**
 * The Flink cluster flags of {@code round --runner flink-cluster} and {@code run --target flink}:
 * the size of a cluster the run starts, or the address of one already running.
 */
final class FlinkClusterOptions {
  @Option(
      names = FlinkClusterSpec.WORKERS,
      paramLabel = "W",
      description =
          "Flink cluster: TaskManagers of the cluster the run starts, each a JVM of its own"
              + " (default: "
              + FlinkClusterSpec.DEFAULT_WORKERS
              + ").")
  Integer workers;

  @Option(
      names = FlinkClusterSpec.SLOTS,
      paramLabel = "S",
      description =
          "Flink cluster: task slots per TaskManager (default: "
              + FlinkClusterSpec.DEFAULT_SLOTS
              + ").")
  Integer slots;

  @Option(
      names = FlinkClusterSpec.PARALLELISM,
      paramLabel = "P",
      description = "Flink cluster: each job's parallelism (default: every slot, W x S).")
  Integer parallelism;

  @Option(
      names = FlinkClusterSpec.FLINK_MASTER,
      paramLabel = "HOST:PORT",
      description =
          "Flink cluster: submit to this running cluster's REST endpoint instead of starting one"
              + " (it must run the Flink release of Beam's runner).")
  String flinkMaster;

  @Option(
      names = FlinkClusterSpec.TASKMANAGER_HEAP,
      paramLabel = "MB",
      description =
          "Flink cluster: heap each TaskManager gives its tasks (default: "
              + FlinkClusterSpec.DEFAULT_TASK_HEAP_MB
              + ").")
  Integer taskHeapMb;

  /** The flags, as a refusal lists them before naming what they are for. */
  static String names(String last) {
    return String.join(
            ", ",
            FlinkClusterSpec.WORKERS,
            FlinkClusterSpec.SLOTS,
            FlinkClusterSpec.PARALLELISM,
            FlinkClusterSpec.FLINK_MASTER)
        + last;
  }

  boolean anyGiven() {
    return workers != null
        || slots != null
        || parallelism != null
        || flinkMaster != null
        || taskHeapMb != null;
  }

  /**
   * The cluster these flags describe, validated.
   *
   * @param killTaskManagerAt {@code --kill-taskmanager-at}, or null
   */
  FlinkClusterSpec spec(Long killTaskManagerAt) {
    if (flinkMaster != null && (workers != null || slots != null || taskHeapMb != null)) {
      throw new IllegalArgumentException(
          "--flink-master uses a running cluster: --workers, --slots and --taskmanager-heap size"
              + " one the run starts; drop them, or drop --flink-master");
    }
    return new FlinkClusterSpec(
            workers != null ? workers : FlinkClusterSpec.DEFAULT_WORKERS,
            slots != null ? slots : FlinkClusterSpec.DEFAULT_SLOTS,
            parallelism,
            flinkMaster,
            taskHeapMb != null ? taskHeapMb : FlinkClusterSpec.DEFAULT_TASK_HEAP_MB,
            killTaskManagerAt)
        .validate();
  }
}
