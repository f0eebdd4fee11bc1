package dev.ingestbench.analysis.source;

import dev.ingestbench.contracts.TableAppendColumns;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Reads the BigQuery emulator's per-table appends ({@code tables.csv}). */
public final class TableAppendsCsv {
  /** One job's table: its first and last append (epoch ms) and its rows. */
  public record Table(String job, String table, long firstAppendMs, long lastAppendMs, long rows) {}

  private TableAppendsCsv() {}

  /** The tables, or none when the run wrote no such file (older runs). */
  public static List<Table> read(Path file) throws IOException {
    return CsvRows.read(
        file,
        String.join(",", TableAppendColumns.ALL),
        r ->
            new Table(
                r.get(TableAppendColumns.JOB),
                r.get(TableAppendColumns.TABLE_ID),
                Long.parseLong(r.get(TableAppendColumns.FIRST_APPEND_MS)),
                Long.parseLong(r.get(TableAppendColumns.LAST_APPEND_MS)),
                Long.parseLong(r.get(TableAppendColumns.ROWS))));
  }
}
