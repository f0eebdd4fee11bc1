package dev.ingestbench.bigquery;

import dev.ingestbench.contracts.ConnectionColumns;
import dev.ingestbench.contracts.CsvField;
import dev.ingestbench.contracts.WholeFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Open AppendRows streams, BigQuery's "concurrent connections": counted per job and in total, held
 * to {@code --max-connections}, and kept per second as Cloud Monitoring's {@code
 * write/concurrent_connections} would chart them.
 */
final class Connections {
  /** Counts of one job (or of all, under {@link ConnectionColumns#ALL_JOBS}). */
  static final class Counts {
    int open;
    int peak;
    long opened;
    long refused;

    /** Per second: {max open, opened, refused, microseconds answering appends}. */
    final TreeMap<Long, long[]> perSecond = new TreeMap<>();

    /** Notes this second's counts; returns its row. */
    long[] record(long second, int openedNow, int refusedNow) {
      long[] row = perSecond.computeIfAbsent(second, s -> new long[4]);
      row[0] = Math.max(row[0], open);
      row[1] += openedNow;
      row[2] += refusedNow;
      return row;
    }
  }

  private final int maxConnections;
  private final Map<String, Counts> byJob = new TreeMap<>();
  private final Counts all = new Counts();

  Connections(int maxConnections) {
    this.maxConnections = maxConnections;
  }

  /**
   * Opens a connection not yet attributed to a job; false (and counted) when the limit is reached.
   */
  synchronized boolean tryOpen() {
    long second = System.currentTimeMillis() / 1000;
    if (all.open >= maxConnections) {
      all.refused++;
      all.record(second, 0, 1);
      return false;
    }
    all.open++;
    all.opened++;
    all.peak = Math.max(all.peak, all.open);
    all.record(second, 1, 0);
    return true;
  }

  /** Attributes an open connection to {@code job} once its first request names it. */
  synchronized void attribute(String job) {
    Counts counts = byJob.computeIfAbsent(job, j -> new Counts());
    counts.open++;
    counts.opened++;
    counts.peak = Math.max(counts.peak, counts.open);
    counts.record(System.currentTimeMillis() / 1000, 1, 0);
  }

  /** Closes a connection ({@code job} null when it never sent a request). */
  synchronized void close(String job) {
    long second = System.currentTimeMillis() / 1000;
    all.open--;
    all.record(second, 0, 0);
    if (job != null) {
      Counts counts = byJob.get(job);
      counts.open--;
      counts.record(second, 0, 0);
    }
  }

  /**
   * An append of {@code job} answered {@code nanos} after it arrived, counted in the second it was
   * answered: per open connection, the share of a second the sink kept its client waiting. Called
   * per append under this object's lock, as opening and closing are: an append carries hundreds to
   * thousands of rows, so a round makes tens of them a second.
   */
  synchronized void appendAnswered(String job, long nanos) {
    long second = System.currentTimeMillis() / 1000;
    long micros = nanos / 1_000;
    all.record(second, 0, 0)[3] += micros;
    Counts counts = byJob.get(job);
    if (counts != null) {
      counts.record(second, 0, 0)[3] += micros;
    }
  }

  /** Notes the current counts for this second, so seconds without changes still appear. */
  synchronized void tick() {
    long second = System.currentTimeMillis() / 1000;
    all.record(second, 0, 0);
    byJob.values().forEach(c -> c.record(second, 0, 0));
  }

  synchronized int open() {
    return all.open;
  }

  synchronized int peak() {
    return all.peak;
  }

  synchronized long opened() {
    return all.opened;
  }

  synchronized long refused() {
    return all.refused;
  }

  /** {open, peak, opened} of {@code job}; zeros when it never connected. */
  synchronized long[] of(String job) {
    Counts counts = byJob.get(job);
    return counts == null ? new long[3] : new long[] {counts.open, counts.peak, counts.opened};
  }

  /** Per second: every job's row and the {@link ConnectionColumns#ALL_JOBS} row. */
  synchronized void writeCsv(Path file) throws IOException {
    WholeFile.write(
        file,
        out -> {
          out.write(String.join(",", ConnectionColumns.ALL) + "\n");
          TreeMap<String, Counts> rows = new TreeMap<>(byJob);
          rows.put(ConnectionColumns.ALL_JOBS, all);
          for (Map.Entry<String, Counts> job : rows.entrySet()) {
            for (Map.Entry<Long, long[]> second : job.getValue().perSecond.entrySet()) {
              long[] row = second.getValue();
              out.write(
                  second.getKey()
                      + ","
                      + CsvField.of(job.getKey())
                      + ","
                      + row[0]
                      + ","
                      + row[1]
                      + ","
                      + row[2]
                      + ","
                      + row[3]
                      + "\n");
            }
          }
        });
  }
}
