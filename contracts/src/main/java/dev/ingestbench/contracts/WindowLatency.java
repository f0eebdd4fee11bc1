package dev.ingestbench.contracts;

/**
 * One job's latency of the messages meant to be sent in a window ({@link SendSchedule}), as the
 * local BigQuery serves it at {@link #path}: against the intended send time (what a user of the
 * pipeline waits) and against Pub/Sub's publish time (the pipeline alone), each to p99.9 and max.
 *
 * @param fromEpochMs the window's start (inclusive), by intended send time
 * @param toEpochMs its end (exclusive)
 * @param intended visible − intended send time of the rows visible so far; null when none
 * @param published visible − Pub/Sub publish time of the same rows; null when none
 */
public record WindowLatency(
    long fromEpochMs, long toEpochMs, Percentiles intended, Percentiles published) {

  /** The path of job {@code job}'s latency in [{@code fromMs}, {@code toMs}). */
  public static String path(String job, long fromMs, long toMs) {
    return "/ingestbench/v1/jobs/" + job + "/window-latency?from_ms=" + fromMs + "&to_ms=" + toMs;
  }

  /** Percentiles of an HDR histogram of latencies in milliseconds (2 significant digits). */
  public record Percentiles(
      long samples, long p50Ms, long p90Ms, long p99Ms, long p999Ms, long maxMs) {}
}
