package dev.ingestbench.contracts;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How a stage ends a running job: the consumer's {@code --stopWith}, a scenario stage's {@code
 * stop_with}, and the line a stage writes to a local consumer's standard input before closing it. A
 * complete run, a timeout and a signal (SIGTERM, Ctrl-C) always cancel.
 */
public enum StopMode {
  /**
   * Stop reading, write what was read, then stop: Flink's stop-with-savepoint with {@code --drain},
   * as {@code gcloud dataflow jobs drain} does on Dataflow. Nothing read is lost under either write
   * method. The job ends for good: its event time was advanced to the end.
   */
  DRAIN,
  /**
   * Stop reading and save the job's whole state, without draining: Flink's stop-with-savepoint
   * ({@code flink stop}). Rows read and not yet written stay in the savepoint; the job's next start
   * restores it ({@code --savepointPath}) and writes them. Flink only: Dataflow has no equivalent.
   */
  SAVEPOINT,
  /**
   * Stop at once, as {@code gcloud dataflow jobs cancel} does: under exactly-once, rows appended
   * but not yet flushed are lost, and their messages were acknowledged already.
   */
  CANCEL;

  public String flag() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The mode named {@code text} (any case), if it is one. */
  public static Optional<StopMode> of(String text) {
    return Arrays.stream(values()).filter(m -> m.flag().equalsIgnoreCase(text)).findFirst();
  }

  /** The accepted names, for error messages: {@code drain, savepoint or cancel}. */
  public static String names() {
    String all = Arrays.stream(values()).map(StopMode::flag).collect(Collectors.joining(", "));
    int last = all.lastIndexOf(", ");
    return all.substring(0, last) + " or " + all.substring(last + 2);
  }
}
