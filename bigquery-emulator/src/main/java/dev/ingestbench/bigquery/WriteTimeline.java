package dev.ingestbench.bigquery;

import dev.ingestbench.contracts.CsvField;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.TimelineColumns;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What {@code INFORMATION_SCHEMA.WRITE_API_TIMELINE} would hold for this emulator: append requests,
 * rows and input bytes per time bucket, table, stream type and error code.
 *
 * <p>Recorded per second; written per minute with the view's own column names (so the analysis
 * reads a local run and a real {@code bq} export alike) and per second for finer charts.
 */
public final class WriteTimeline {
  /** How the bq CLI writes a TIMESTAMP in CSV. */
  private static final DateTimeFormatter BQ_TIMESTAMP =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

  record Key(
      String job,
      long epochSecond,
      String projectId,
      String datasetId,
      String tableId,
      String streamType,
      String errorCode) {}

  private static final class Totals {
    final LongAdder requests = new LongAdder();
    final LongAdder rows = new LongAdder();
    final LongAdder bytes = new LongAdder();
  }

  private final Map<Key, Totals> perSecond = new ConcurrentHashMap<>();

  /** Input bytes of successful appends to data tables, per job: what a running scenario samples. */
  private final Map<String, LongAdder> dataBytesByJob = new ConcurrentHashMap<>();

  void record(
      String job,
      long epochMillis,
      String projectId,
      String datasetId,
      String tableId,
      String streamType,
      String errorCode,
      long rows,
      long bytes) {
    Totals totals =
        perSecond.computeIfAbsent(
            new Key(job, epochMillis / 1000, projectId, datasetId, tableId, streamType, errorCode),
            k -> new Totals());
    totals.requests.increment();
    totals.rows.add(rows);
    totals.bytes.add(bytes);
    boolean ok = errorCode == null || errorCode.isEmpty() || errorCode.equals("OK");
    if (ok && !RunFiles.isDeadLetterTable(tableId)) {
      dataBytesByJob.computeIfAbsent(job, j -> new LongAdder()).add(bytes);
    }
  }

  /** Input bytes {@code job} appended to data tables so far. */
  long dataBytes(String job) {
    LongAdder bytes = dataBytesByJob.get(job);
    return bytes == null ? 0 : bytes.sum();
  }

  /** The jobs that appended, in name order. */
  SortedSet<String> jobs() {
    SortedSet<String> jobs = new TreeSet<>();
    perSecond.keySet().forEach(k -> jobs.add(k.job()));
    return jobs;
  }

  /**
   * Writes the timeline bucketed by {@code bucketSeconds} (60 for the view's per-minute rows): of
   * every job, or of {@code job} alone when it is not null.
   */
  public void writeCsv(Path file, int bucketSeconds, String job) throws IOException {
    Map<Key, long[]> buckets =
        new TreeMap<>(
            Comparator.comparingLong(Key::epochSecond)
                .thenComparing(Key::projectId)
                .thenComparing(Key::datasetId)
                .thenComparing(Key::tableId)
                .thenComparing(Key::streamType)
                .thenComparing(Key::errorCode));
    perSecond.forEach(
        (key, totals) -> {
          if (job != null && !job.equals(key.job())) {
            return;
          }
          Key bucket =
              new Key(
                  "",
                  key.epochSecond() - Math.floorMod(key.epochSecond(), bucketSeconds),
                  key.projectId(),
                  key.datasetId(),
                  key.tableId(),
                  key.streamType(),
                  key.errorCode());
          long[] sums = buckets.computeIfAbsent(bucket, k -> new long[3]);
          sums[0] += totals.requests.sum();
          sums[1] += totals.rows.sum();
          sums[2] += totals.bytes.sum();
        });
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write(String.join(",", TimelineColumns.ALL));
      out.write('\n');
      for (Map.Entry<Key, long[]> entry : buckets.entrySet()) {
        Key key = entry.getKey();
        long[] sums = entry.getValue();
        // In TimelineColumns.ALL's order; project_number is unknown locally.
        out.write(
            String.join(
                ",",
                BQ_TIMESTAMP.format(Instant.ofEpochSecond(key.epochSecond())),
                CsvField.of(key.projectId()),
                "",
                CsvField.of(key.datasetId()),
                CsvField.of(key.tableId()),
                CsvField.of(key.streamType()),
                CsvField.of(key.errorCode()),
                Long.toString(sums[0]),
                Long.toString(sums[1]),
                Long.toString(sums[2])));
        out.write('\n');
      }
    }
  }
}
