package dev.ingestbench.harness.source;

import java.io.IOException;
import java.time.Duration;
import java.util.function.ToLongFunction;

/**
 * Every fed job's accounted-for messages, as one reading (the BigQuery emulator's status, read
 * once): what a feed compares with what it published to know what a job has waiting.
 */
@FunctionalInterface
public interface AccountedCounts {
  ToLongFunction<String> read() throws IOException;

  /**
   * {@link #read}, again after a failed read (a busy machine's BigQuery emulator may miss one):
   * only {@code attempts} failures in a row throw.
   */
  default ToLongFunction<String> readRetrying(int attempts, Duration pause)
      throws IOException, InterruptedException {
    for (int attempt = 1; ; attempt++) {
      try {
        return read();
      } catch (IOException e) {
        if (attempt >= attempts) {
          throw e;
        }
        Thread.sleep(pause.toMillis());
      }
    }
  }
}
