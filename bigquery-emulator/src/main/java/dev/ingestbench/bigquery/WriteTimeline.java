package dev.ingestbench.bigquery;

import dev.ingestbench.contracts.CsvField;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.TimelineColumns;
import dev.ingestbench.contracts.WholeFile;
import java.io.IOException;
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
 * <p>Recorded per minute and per table, as the view is, with its own column names (so the analysis
 * reads a local run and a real {@code bq} export alike); and per second for finer charts, per table
 * for the first {@link #PER_SECOND_TABLES} data tables to appear and the rest together as {@link
 * #OTHER_TABLES}: 10,000 tables written every second would otherwise hold a key per table and
 * second (a million in under two minutes), and the per-second view's use is the run's rate.
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

  /**
   * Data tables the per-second timeline names one by one; later ones share {@link #OTHER_TABLES}.
   */
  static final int PER_SECOND_TABLES = 100;

  /**
   * The per-second timeline's name for every data table past the first {@link #PER_SECOND_TABLES}.
   */
  public static final String OTHER_TABLES = "(other tables)";

  private final Map<Key, Totals> perSecond = new ConcurrentHashMap<>();
  private final Map<Key, Totals> perMinute = new ConcurrentHashMap<>();
  private final Map<String, Boolean> perSecondTables = new ConcurrentHashMap<>();

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
    long second = epochMillis / 1000;
    add(
        perMinute,
        new Key(
            job,
            second - Math.floorMod(second, 60),
            projectId,
            datasetId,
            tableId,
            streamType,
            errorCode),
        rows,
        bytes);
    add(
        perSecond,
        new Key(job, second, projectId, datasetId, perSecondName(tableId), streamType, errorCode),
        rows,
        bytes);
    boolean ok = errorCode == null || errorCode.isEmpty() || errorCode.equals("OK");
    if (ok && !RunFiles.isDeadLetterTable(tableId)) {
      dataBytesByJob.computeIfAbsent(job, j -> new LongAdder()).add(bytes);
    }
  }

  private static void add(Map<Key, Totals> map, Key key, long rows, long bytes) {
    Totals totals = map.computeIfAbsent(key, k -> new Totals());
    totals.requests.increment();
    totals.rows.add(rows);
    totals.bytes.add(bytes);
  }

  /** The table's own name for the first data tables and every dead-letter table, else the lump. */
  private String perSecondName(String tableId) {
    if (RunFiles.isDeadLetterTable(tableId) || perSecondTables.containsKey(tableId)) {
      return tableId;
    }
    if (perSecondTables.size() < PER_SECOND_TABLES) {
      perSecondTables.putIfAbsent(tableId, Boolean.TRUE);
      // Two tables racing for the last place may both take it: a table or two more, never fewer.
      return tableId;
    }
    return OTHER_TABLES;
  }

  /** Input bytes {@code job} appended to data tables so far. */
  long dataBytes(String job) {
    LongAdder bytes = dataBytesByJob.get(job);
    return bytes == null ? 0 : bytes.sum();
  }

  /** The jobs that appended, in name order. */
  SortedSet<String> jobs() {
    SortedSet<String> jobs = new TreeSet<>();
    perMinute.keySet().forEach(k -> jobs.add(k.job()));
    return jobs;
  }

  /**
   * Writes the timeline bucketed by {@code bucketSeconds} (60 for the view's per-minute rows, every
   * table by name; less than a minute from the per-second record, the later tables together): of
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
    (bucketSeconds % 60 == 0 ? perMinute : perSecond)
        .forEach(
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
    WholeFile.write(
        file,
        out -> {
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
        });
  }
}
