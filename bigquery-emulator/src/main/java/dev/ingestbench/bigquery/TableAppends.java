package dev.ingestbench.bigquery;

import dev.ingestbench.contracts.CsvField;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.TableAppendColumns;
import dev.ingestbench.contracts.WholeFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per job and data table: its first and last append and its rows. One small entry per table
 * whatever the run's length, so 10,000 tables cost a few megabytes; what the report needs to say
 * when each destination started and how the rows spread.
 */
final class TableAppends {
  private record Key(String job, String table) {}

  private static final class Totals {
    final long firstMillis;
    long lastMillis;
    long rows;

    Totals(long firstMillis) {
      this.firstMillis = firstMillis;
    }
  }

  private final Map<Key, Totals> tables = new ConcurrentHashMap<>();

  void record(String job, String table, long rows, long nowMillis) {
    if (RunFiles.isDeadLetterTable(table)) {
      return;
    }
    Totals totals = tables.computeIfAbsent(new Key(job, table), k -> new Totals(nowMillis));
    synchronized (totals) {
      totals.lastMillis = Math.max(totals.lastMillis, nowMillis);
      totals.rows += rows;
    }
  }

  void writeCsv(Path file) throws IOException {
    WholeFile.write(
        file,
        out -> {
          out.write(String.join(",", TableAppendColumns.ALL));
          out.write('\n');
          var sorted =
              tables.entrySet().stream()
                  .sorted(
                      Comparator.comparing((Map.Entry<Key, Totals> e) -> e.getKey().job())
                          .thenComparing(e -> e.getKey().table()))
                  .toList();
          for (Map.Entry<Key, Totals> e : sorted) {
            Totals t = e.getValue();
            synchronized (t) {
              out.write(
                  String.join(
                      ",",
                      CsvField.of(e.getKey().job()),
                      CsvField.of(e.getKey().table()),
                      Long.toString(t.firstMillis),
                      Long.toString(t.lastMillis),
                      Long.toString(t.rows)));
            }
            out.write('\n');
          }
        });
  }
}
