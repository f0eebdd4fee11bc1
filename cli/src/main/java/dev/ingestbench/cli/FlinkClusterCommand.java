package dev.ingestbench.cli;

import dev.ingestbench.flink.FlinkProcess;
import dev.ingestbench.flink.LocalFlinkCluster;
import dev.ingestbench.harness.flink.PipelineRunner;
import dev.ingestbench.harness.spec.ChildFlag;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Starts a local Flink session cluster and keeps it running until interrupted. */
@Command(
    name = "flink-cluster",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Start a standalone Apache Flink session cluster: one JobManager and W TaskManagers, each in"
          + " its own JVM, at the Flink release of Beam's runner, every port on loopback. Prints"
          + " the address for --flinkMaster (Beam's FlinkRunner submits jobs to it with their"
          + " jars). Ctrl-C stops every process.",
      "",
      "  ingestbench flink-cluster --taskmanagers 2 --slots 2",
      ""
    })
final class FlinkClusterCommand implements Callable<Integer> {
  @Option(
      names = "--taskmanagers",
      paramLabel = "W",
      defaultValue = "2",
      description = "TaskManagers (workers), each a JVM of its own (default: ${DEFAULT-VALUE}).")
  int taskManagers;

  @Option(
      names = "--slots",
      paramLabel = "S",
      defaultValue = "1",
      description = "Task slots per TaskManager (default: ${DEFAULT-VALUE}).")
  int slots;

  @Option(
      names = "--taskmanager-heap",
      paramLabel = "MB",
      defaultValue = "768",
      description =
          "Heap each TaskManager gives its tasks, in MB (default: ${DEFAULT-VALUE}; Flink's own"
              + " heap, network buffers and metaspace come on top).")
  int taskHeapMb;

  @Option(
      names = "--logs",
      paramLabel = "DIR",
      description =
          "Keep the processes' logs here (jobmanager.log, taskmanager-1.log, ...); default: a"
              + " temporary directory removed at the end.")
  Path logs;

  @Override
  public Integer call() throws Exception {
    if (taskManagers < 1 || taskManagers > 16) {
      throw new IllegalArgumentException(
          "--taskmanagers "
              + taskManagers
              + " must be between 1 and 16 (each is a JVM of its own)");
    }
    if (slots < 1) {
      throw new IllegalArgumentException("--slots " + slots + " must be 1 or more");
    }
    if (taskHeapMb < 128) {
      throw new IllegalArgumentException(
          "--taskmanager-heap " + taskHeapMb + " must be 128 (MB) or more");
    }
    Path dir = LocalFlinkCluster.newWorkDirectory();
    // Without --logs they live in the working directory, removed with it however the command ends.
    Path logDir = logs != null ? logs : dir.resolve("logs");
    try (LocalFlinkCluster cluster =
        LocalFlinkCluster.start(dir, logDir, taskManagers, slots, taskHeapMb)) {
      System.out.println(
          "Flink "
              + LocalFlinkCluster.version()
              + " session cluster: JobManager (pid "
              + cluster.processes().get(0).pid()
              + ") and "
              + taskManagers
              + " TaskManagers of "
              + slots
              + " slots; logs in "
              + logDir
              + (logs == null ? " (removed when it stops; --logs DIR keeps them)" : ""));
      for (FlinkProcess tm : cluster.taskManagers()) {
        System.out.println("  " + tm.name() + ": pid " + tm.pid());
      }
      System.out.println(
          ChildFlag.RUNNER.is(PipelineRunner.FLINK_RUNNER)
              + " "
              + ChildFlag.FLINK_MASTER.is(cluster.master()));
      System.out.flush();
      int exit = cluster.awaitJobManagerExit();
      if (cluster.stopRequested()) {
        return 0; // Ctrl-C: stopped as asked
      }
      FlinkProcess jobManager = cluster.processes().get(0);
      System.out.println(
          "The JobManager exited (code "
              + exit
              + "); its last lines:"
              + System.lineSeparator()
              + jobManager.lastLines());
      return 3;
    }
  }
}
