package dev.ingestbench.flink;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint;
import org.apache.flink.runtime.taskexecutor.TaskManagerRunner;

/**
 * The main of a cluster process: Flink's own entry point of a standalone session JobManager or of a
 * TaskManager (what {@code jobmanager.sh} and {@code taskmanager.sh} start), which exits when its
 * standard input closes, so that no JobManager or TaskManager outlives the process that started it
 * however that one ended (SIGKILL included).
 */
public final class FlinkProcessMain {
  static final String JOBMANAGER = "jobmanager";
  static final String TASKMANAGER = "taskmanager";

  private FlinkProcessMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1 || !(args[0].equals(JOBMANAGER) || args[0].equals(TASKMANAGER))) {
      System.err.println(
          "usage: FlinkProcessMain jobmanager|taskmanager --configDir DIR [-D key=value]..."
              + " (LocalFlinkCluster writes the configuration)");
      System.exit(2);
    }
    Thread watcher = new Thread(FlinkProcessMain::exitWhenStdinCloses, "stdin-eof");
    watcher.setDaemon(true);
    watcher.start();
    String[] flinkArgs = Arrays.copyOfRange(args, 1, args.length);
    if (args[0].equals(JOBMANAGER)) {
      StandaloneSessionClusterEntrypoint.main(flinkArgs);
    } else {
      TaskManagerRunner.main(flinkArgs);
    }
  }

  private static void exitWhenStdinCloses() {
    try {
      InputStream in = System.in;
      while (in.read() >= 0) {
        // nothing is sent; only the end matters
      }
    } catch (IOException e) {
      // a broken pipe is an end as well
    }
    // Flink's shutdown hooks stop the process's services (and a TaskManager's tasks) cleanly.
    System.exit(0);
  }
}
