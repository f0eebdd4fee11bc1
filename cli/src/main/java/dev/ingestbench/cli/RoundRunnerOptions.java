package dev.ingestbench.cli;

import dev.ingestbench.harness.flink.PipelineRunner;
import dev.ingestbench.harness.spec.FlinkClusterSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Where {@code ingestbench round}'s consumers run their pipelines: a Beam runner in each consumer's
 * JVM, or a Flink session cluster (its size, or the address of one running, and a TaskManager
 * kill).
 */
final class RoundRunnerOptions {
  /** --runner's value for a Flink session cluster. */
  static final String FLINK_CLUSTER = FlinkClusterSpec.RUNNER_FLINK_CLUSTER;

  @Option(
      names = FlinkClusterSpec.RUNNER,
      defaultValue = PipelineRunner.FLINK_RUNNER,
      description =
          "Consumer runner: FlinkRunner (embedded Flink in each consumer's JVM), flink-cluster"
              + " (each job submitted to a Flink session cluster: see --workers) or DirectRunner"
              + " (default: ${DEFAULT-VALUE}).")
  String name;

  @Mixin FlinkClusterOptions clusterFlags = new FlinkClusterOptions();

  @Option(
      names = FlinkClusterSpec.KILL_TASKMANAGER_AT,
      paramLabel = "SECONDS",
      description =
          "With --runner flink-cluster: kill one TaskManager (SIGKILL, a worker failure) this many"
              + " seconds after every job wrote its first row; Flink restarts the job from its last"
              + " checkpoint and a fresh TaskManager takes the dead one's place.")
  Long killTaskManagerAt;

  /** --runner's: a Beam runner in each consumer's JVM, or flink-cluster's cluster. */
  PipelineRunner pipelineRunner() {
    if (!name.equals(FLINK_CLUSTER)) {
      if (clusterFlags.anyGiven() || killTaskManagerAt != null) {
        throw new IllegalArgumentException(
            FlinkClusterOptions.names(
                    ", "
                        + FlinkClusterSpec.TASKMANAGER_HEAP
                        + " and "
                        + FlinkClusterSpec.KILL_TASKMANAGER_AT)
                + " are for --runner flink-cluster; add it, or drop them");
      }
      return PipelineRunner.inConsumerJvm(name, ", or " + FLINK_CLUSTER + " (a Flink cluster)");
    }
    return PipelineRunner.onCluster(clusterFlags.spec(killTaskManagerAt));
  }
}
