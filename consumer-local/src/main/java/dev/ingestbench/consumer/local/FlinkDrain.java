package dev.ingestbench.consumer.local;

import java.lang.reflect.Field;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.beam.sdk.PipelineResult;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;

/**
 * Stops a pipeline on Flink (embedded or a cluster) with a savepoint. With {@code --drain} it stops
 * the sources, advances event time to its end so every window, timer and buffered append fires, and
 * completes one last checkpoint (the savepoint), at which the Pub/Sub reader acknowledges what was
 * written. Without it the sources stop and the state is saved as it is, to be restored. It is how
 * Flink's own CLI stops a job ({@code flink stop [--drain]}); Beam's {@link PipelineResult} offers
 * only a cancel, so the Flink {@link JobClient} is read from Beam's detached result.
 */
final class FlinkDrain {
  private FlinkDrain() {}

  /**
   * Stops the job behind {@code result} with a savepoint under {@code savepointDir}, draining it
   * first when {@code drain} ({@code flink stop --drain}) or keeping its state to restore ({@code
   * flink stop}), and waits up to {@code maxSeconds}. Returns the savepoint's path.
   *
   * @throws UnsupportedOperationException when {@code result} is not a detached Flink job
   * @throws TimeoutException when the stop takes longer (the job keeps stopping)
   */
  static String stopWithSavepoint(
      PipelineResult result, boolean drain, String savepointDir, long maxSeconds)
      throws InterruptedException, ExecutionException, TimeoutException {
    JobClient job = jobClient(result);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(maxSeconds);
    while (true) {
      long left = deadline - System.nanoTime();
      try {
        return job.stopWithSavepoint(drain, savepointDir, SavepointFormatType.CANONICAL)
            .get(Math.max(left, 0), TimeUnit.NANOSECONDS);
      } catch (ExecutionException e) {
        // A job whose tasks are still being deployed or restored cannot take a savepoint yet
        // (measured: a job restored from a savepoint and stopped 7 s later); Flink says so and
        // leaves the job running, so asking again a second later is safe.
        if (!tasksNotYetRunning(e) || System.nanoTime() + 1_000_000_000L > deadline) {
          throw e;
        }
        Thread.sleep(1_000);
      }
    }
  }

  private static boolean tasksNotYetRunning(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() != null
          && t.getMessage().contains("Not all required tasks are currently running")) {
        return true;
      }
    }
    return false;
  }

  private static JobClient jobClient(PipelineResult result) {
    try {
      Field field = result.getClass().getDeclaredField("jobClient");
      field.setAccessible(true);
      return (JobClient) field.get(result);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new UnsupportedOperationException(
          "cannot drain a " + result.getClass().getSimpleName() + " (only a detached Flink job)",
          e);
    }
  }
}
