package dev.ingestbench.consumer.local;

import java.lang.reflect.Field;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.beam.sdk.PipelineResult;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;

/**
 * Drains a pipeline on embedded Flink: stop-with-savepoint with {@code --drain}, which stops the
 * sources, advances event time to its end so every window, timer and buffered append fires, and
 * completes one last checkpoint (the savepoint), at which the Pub/Sub reader acknowledges what was
 * written. It is how Flink's own CLI drains ({@code flink stop --drain}); Beam's {@link
 * PipelineResult} offers only a cancel, so the Flink {@link JobClient} is read from Beam's detached
 * result.
 */
final class FlinkDrain {
  private FlinkDrain() {}

  /**
   * Drains the job behind {@code result}, saving its last state under {@code savepointDir}, and
   * waits up to {@code maxSeconds}.
   *
   * @throws UnsupportedOperationException when {@code result} is not a detached embedded-Flink job
   * @throws TimeoutException when the drain takes longer (the job keeps draining)
   */
  static String drain(PipelineResult result, String savepointDir, long maxSeconds)
      throws InterruptedException, ExecutionException, TimeoutException {
    return jobClient(result)
        .stopWithSavepoint(true, savepointDir, SavepointFormatType.CANONICAL)
        .get(maxSeconds, TimeUnit.SECONDS);
  }

  private static JobClient jobClient(PipelineResult result) {
    try {
      Field field = result.getClass().getDeclaredField("jobClient");
      field.setAccessible(true);
      return (JobClient) field.get(result);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new UnsupportedOperationException(
          "cannot drain a "
              + result.getClass().getSimpleName()
              + " (only a detached embedded Flink job)",
          e);
    }
  }
}
