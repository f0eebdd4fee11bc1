package dev.ingestbench.analysis.model;

import java.time.Instant;

/** Totals of one time bucket (a second or a minute) across the tables of interest. */
public record Bucket(
    Instant start, int seconds, long rows, long bytes, long requests, long errorRows) {

  public double rowsPerSecond() {
    return rows / (double) seconds;
  }

  /** MB/s with MB = 10^6 bytes, as in the reference rounds. */
  public double mbPerSecond() {
    return bytes / 1e6 / seconds;
  }
}
