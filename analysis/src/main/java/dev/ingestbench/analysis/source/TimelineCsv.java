package dev.ingestbench.analysis.source;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.ingestbench.analysis.model.TimelineRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a WRITE_API_TIMELINE CSV with the view's own column names, as {@code bq query --format=csv}
 * exports it and as a local round writes it. Columns may come in any order; extra ones are ignored.
 */
public final class TimelineCsv {
  static final Set<String> REQUIRED =
      Set.of("start_timestamp", "table_id", "total_rows", "total_input_bytes");
  private static final DateTimeFormatter BQ =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss[.SSSSSS][.SSS]");

  private TimelineCsv() {}

  public static List<TimelineRow> read(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IOException("timeline file " + file + " does not exist");
    }
    CsvMapper mapper = new CsvMapper();
    CsvSchema schema = CsvSchema.emptySchema().withHeader();
    List<TimelineRow> rows = new ArrayList<>();
    try (MappingIterator<Map<String, String>> it =
        mapper.readerFor(Map.class).with(schema).readValues(file.toFile())) {
      int line = 1;
      while (it.hasNextValue()) {
        Map<String, String> r = it.nextValue();
        line++;
        if (line == 2) {
          for (String column : REQUIRED) {
            if (!r.containsKey(column)) {
              throw new IOException(
                  file + " has no column '" + column + "': export WRITE_API_TIMELINE with the view's"
                      + " column names (SELECT * or keep start_timestamp, table_id, total_rows,"
                      + " total_input_bytes)");
            }
          }
        }
        rows.add(
            new TimelineRow(
                parseTimestamp(r.get("start_timestamp"), file, line),
                r.getOrDefault("project_id", ""),
                r.getOrDefault("dataset_id", ""),
                r.get("table_id"),
                r.getOrDefault("stream_type", ""),
                r.getOrDefault("error_code", ""),
                parseLong(r.getOrDefault("total_requests", "0"), "total_requests", file, line),
                parseLong(r.get("total_rows"), "total_rows", file, line),
                parseLong(r.get("total_input_bytes"), "total_input_bytes", file, line)));
      }
    }
    return rows;
  }

  /** Accepts the bq CLI's {@code 2026-02-12 10:54:00} (optionally with " UTC") and ISO-8601. */
  static Instant parseTimestamp(String value, Path file, int line) throws IOException {
    String v = value == null ? "" : value.trim();
    if (v.endsWith(" UTC")) {
      v = v.substring(0, v.length() - 4);
    }
    try {
      return LocalDateTime.parse(v, BQ).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException notBq) {
      try {
        return OffsetDateTime.parse(v).toInstant();
      } catch (DateTimeParseException notIso) {
        try {
          return Instant.parse(v);
        } catch (DateTimeParseException e) {
          throw new IOException(
              file + " line " + line + ": start_timestamp '" + value
                  + "' is not a timestamp (expected e.g. 2026-02-12 10:54:00)");
        }
      }
    }
  }

  private static long parseLong(String value, String column, Path file, int line) throws IOException {
    if (value == null || value.isBlank()) {
      return 0;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new IOException(file + " line " + line + ": " + column + " '" + value + "' is not a whole number");
    }
  }
}
