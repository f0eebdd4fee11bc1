package dev.ingestbench.analysis.source;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What the CSV readers share: the first of several accepted column names a row has, and reading a
 * run's own CSV file (a header, then rows) into records.
 */
final class CsvRows {
  private CsvRows() {}

  /** The value of the first of {@code names} present in {@code row}, or null. */
  static String first(Map<String, String> row, String... names) {
    for (String name : names) {
      if (row.containsKey(name)) {
        return row.get(name);
      }
    }
    return null;
  }

  /**
   * Every row of {@code file} by its header, as {@code record} makes it; none when the file does
   * not exist (a run recorded before the file was written) or is empty. A row {@code record} cannot
   * read is refused, saying the {@code columns} the file must have.
   */
  static <T> List<T> read(Path file, String columns, Function<Map<String, String>, T> record)
      throws IOException {
    List<T> records = new ArrayList<>();
    if (!Files.isRegularFile(file) || Files.size(file) == 0) {
      // Empty: a run stopped by a signal as the file was written (a killed segment of a scenario);
      // as missing, its other files stand.
      return records;
    }
    try (MappingIterator<Map<String, String>> it =
        new CsvMapper()
            .readerFor(Map.class)
            .with(CsvSchema.emptySchema().withHeader())
            .readValues(file.toFile())) {
      while (it.hasNextValue()) {
        records.add(record.apply(it.nextValue()));
      }
    } catch (RuntimeException e) {
      throw new IOException(file + " is not " + columns + " rows: " + e.getMessage());
    }
    return records;
  }
}
