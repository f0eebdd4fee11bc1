package dev.ingestbench.analysis.source;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.ingestbench.contracts.TableAppendColumns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads the BigQuery emulator's per-table appends ({@code tables.csv}). */
public final class TableAppendsCsv {
  /** One job's table: its first and last append (epoch ms) and its rows. */
  public record Table(String job, String table, long firstAppendMs, long lastAppendMs, long rows) {}

  private TableAppendsCsv() {}

  /** The tables, or none when the run wrote no such file (older runs). */
  public static List<Table> read(Path file) throws IOException {
    List<Table> tables = new ArrayList<>();
    if (!Files.isRegularFile(file)) {
      return tables;
    }
    try (MappingIterator<Map<String, String>> it =
        new CsvMapper()
            .readerFor(Map.class)
            .with(CsvSchema.emptySchema().withHeader())
            .readValues(file.toFile())) {
      while (it.hasNextValue()) {
        Map<String, String> r = it.nextValue();
        try {
          tables.add(
              new Table(
                  r.get(TableAppendColumns.JOB),
                  r.get(TableAppendColumns.TABLE_ID),
                  Long.parseLong(r.get(TableAppendColumns.FIRST_APPEND_MS)),
                  Long.parseLong(r.get(TableAppendColumns.LAST_APPEND_MS)),
                  Long.parseLong(r.get(TableAppendColumns.ROWS))));
        } catch (RuntimeException e) {
          throw new IOException(
              file + ": row " + r + " is not a table's appends (" + e.getMessage() + ")");
        }
      }
    }
    return tables;
  }
}
