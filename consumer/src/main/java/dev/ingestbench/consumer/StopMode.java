package dev.ingestbench.consumer;

import java.util.Locale;

/**
 * How a local run ends its pipeline when standard input closes ({@code --stopWith}), as a stage
 * stops a job. A complete run, a timeout and a signal (SIGTERM, Ctrl-C) always cancel.
 */
public enum StopMode {
  /**
   * Stop reading, write what was read, then stop: Flink's stop-with-savepoint with {@code --drain},
   * as {@code gcloud dataflow jobs drain} does on Dataflow. Nothing read is lost under either write
   * method.
   */
  DRAIN,
  /**
   * Stop at once, as {@code gcloud dataflow jobs cancel} does: under exactly-once, rows appended
   * but not yet flushed are lost, and their messages were acknowledged already.
   */
  CANCEL;

  public String flag() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static StopMode fromFlag(String value) {
    return FlagValues.parse("--stopWith", value, values(), StopMode::flag);
  }
}
