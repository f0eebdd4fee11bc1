package dev.ingestbench.analysis.source;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import dev.ingestbench.analysis.model.TimelineRow;
import dev.ingestbench.contracts.TimelineColumns;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a WRITE_API_TIMELINE CSV with the view's own column names, as {@code bq query --format=csv}
 * exports it and as a local round writes it. Columns may come in any order; extra ones are ignored.
 */
public final class TimelineCsv {
  private static final DateTimeFormatter BQ =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss[.SSSSSS][.SSS]");

  private TimelineCsv() {}

  public static List<TimelineRow> read(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IOException("timeline file " + file + " does not exist");
    }
    try {
      if (TimelineJson.looksLikeJson(file)) {
        Utf8Text.require(file);
        return TimelineJson.read(file);
      }
      return readCsv(file);
    } catch (CharacterCodingException e) {
      // The CSV is decoded strictly as it is parsed, in one read; only a file that is not UTF-8 is
      // read again, to say where.
      Utf8Text.require(file);
      throw e;
    }
  }

  /**
   * The file's characters, decoded as UTF-8 that refuses what is not (a malformed byte throws
   * rather than becoming U+FFFD), a byte-order mark skipped.
   */
  private static Reader strictUtf8(Path file) throws IOException {
    Reader in =
        new BufferedReader(
            new InputStreamReader(
                Files.newInputStream(file),
                StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)),
            1 << 16);
    in.mark(1);
    if (in.read() != '\uFEFF') {
      in.reset();
    }
    return in;
  }

  private static List<TimelineRow> readCsv(Path file) throws IOException {
    // Tokens straight from the parser, no row objects in between, and each distinct timestamp
    // parsed once: a day of a 50-table, four-stream-type timeline is 288,000 rows sharing 1,440
    // timestamps, and the text columns repeat a handful of values (kept once each). The factory
    // alone, not a CsvMapper: a mapper is an ObjectMapper, whose set-up costs ~50 ms of a
    // sub-second command and is not needed to read tokens.
    List<TimelineRow> rows = new ArrayList<>();
    Map<String, String> repeated = new HashMap<>();
    RepeatedRows repeats = new RepeatedRows();
    try (CsvParser parser = new CsvFactory().createParser(strictUtf8(file))) {
      List<String> header = nextRecord(parser, null);
      if (header == null) {
        throw new IllegalArgumentException(
            file + " is empty: expected a header line with the view's column names");
      }
      for (String column : TimelineColumns.REQUIRED) {
        if (!header.contains(column)) {
          throw new IllegalArgumentException(
              file
                  + " has no column '"
                  + column
                  + "': export WRITE_API_TIMELINE with the view's"
                  + " column names (SELECT * or keep start_timestamp, table_id, total_rows,"
                  + " total_input_bytes)");
        }
      }
      int start = header.indexOf(TimelineColumns.START_TIMESTAMP);
      int project = header.indexOf(TimelineColumns.PROJECT_ID);
      int dataset = header.indexOf(TimelineColumns.DATASET_ID);
      int table = header.indexOf(TimelineColumns.TABLE_ID);
      int streamType = header.indexOf(TimelineColumns.STREAM_TYPE);
      int errorCode = header.indexOf(TimelineColumns.ERROR_CODE);
      int requests = header.indexOf(TimelineColumns.TOTAL_REQUESTS);
      int totalRows = header.indexOf(TimelineColumns.TOTAL_ROWS);
      int bytes = header.indexOf(TimelineColumns.TOTAL_INPUT_BYTES);
      String lastText = null;
      Instant lastInstant = null;
      int line = 1;
      List<String> r = new ArrayList<>(header.size());
      while (nextRecord(parser, r) != null) {
        line++;
        if (r.size() != header.size() && !(r.size() == 1 && r.get(0).isEmpty())) {
          throw new IllegalArgumentException(
              file
                  + " line "
                  + line
                  + " has "
                  + r.size()
                  + " fields where the header has "
                  + header.size()
                  + (r.size() > header.size()
                      ? ": a value with a comma that is not in quotes shifts every column after it;"
                          + " quote it or export again (bq --format=csv quotes such values)"
                      : ": the line is cut short; export again")
                  + ". The line: "
                  + String.join(",", r));
        }
        if (r.size() == 1 && r.get(0).isEmpty()) {
          continue; // a blank line
        }
        String text = at(r, start);
        if (!text.equals(lastText)) {
          lastInstant = parseTimestamp(text, file, line);
          lastText = text;
        }
        TimelineRow row =
            new TimelineRow(
                lastInstant,
                repeated.computeIfAbsent(at(r, project), v -> v),
                repeated.computeIfAbsent(at(r, dataset), v -> v),
                repeated.computeIfAbsent(at(r, table), v -> v),
                repeated.computeIfAbsent(at(r, streamType), v -> v),
                repeated.computeIfAbsent(at(r, errorCode), v -> v),
                parseLong(at(r, requests), "total_requests", file, line),
                required(at(r, totalRows), "total_rows", file, line),
                required(at(r, bytes), "total_input_bytes", file, line));
        Integer earlier = repeats.earlierLine(row, line, rows);
        if (earlier != null) {
          throw new IllegalArgumentException(
              file
                  + " line "
                  + line
                  + " repeats line "
                  + earlier
                  + " (the same table,"
                  + " minute, stream type and error code): the view has one row for each, so adding both would count"
                  + " those rows twice; export again, or remove the repeated lines");
        }
        rows.add(row);
      }
    }
    return rows;
  }

  /**
   * The next line's fields into {@code into} (a new list when null), or null at the end of the
   * file.
   */
  private static List<String> nextRecord(CsvParser parser, List<String> into) throws IOException {
    JsonToken token = parser.nextToken();
    if (token == null) {
      return null;
    }
    List<String> fields = into != null ? into : new ArrayList<>();
    fields.clear();
    for (token = parser.nextToken();
        token != null && token != JsonToken.END_ARRAY;
        token = parser.nextToken()) {
      fields.add(parser.getText());
    }
    return fields;
  }

  private static String at(List<String> row, int index) {
    return index >= 0 && index < row.size() ? row.get(index) : "";
  }

  /**
   * Accepts the bq CLI's {@code 2026-02-12 10:54:00} (optionally with " UTC"), ISO-8601, and epoch
   * seconds (how {@code bq --format=json} may render a TIMESTAMP, e.g. {@code 1.7708904E9}).
   */
  /** Epoch seconds at or above this are epoch milliseconds (as seconds: the year 5138). */
  static final double EPOCH_MILLIS_FROM = 1e11;

  /** Epoch seconds below this (2001-09-09) are no time the view can hold. */
  static final double EPOCH_SECONDS_FROM = 1e9;

  public static Instant parseTimestamp(String value, Path file, int line) {
    String v = value == null ? "" : value.trim();
    if (!v.isEmpty() && (Character.isDigit(v.charAt(0)) && !v.contains("-"))) {
      double seconds;
      try {
        seconds = Double.parseDouble(v);
      } catch (NumberFormatException e) {
        seconds = Double.NaN; // not epoch seconds; try the text forms below
      }
      if (!Double.isNaN(seconds)) {
        if (seconds >= EPOCH_MILLIS_FROM) {
          throw new IllegalArgumentException(
              file
                  + " line "
                  + line
                  + ": start_timestamp '"
                  + value
                  + "' looks like epoch milliseconds, not the seconds the view's timestamps are in:"
                  + " divide by 1000, or export as text (bq query --format=csv)");
        }
        if (seconds < EPOCH_SECONDS_FROM) {
          throw new IllegalArgumentException(
              file
                  + " line "
                  + line
                  + ": start_timestamp '"
                  + value
                  + "' is not a time of the Storage Write API (as epoch seconds it is before 2001):"
                  + " a placeholder or a counter? export the view's start_timestamp as it is");
        }
        return Instant.ofEpochMilli(Math.round(seconds * 1000));
      }
    }
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
          throw new IllegalArgumentException(
              file
                  + " line "
                  + line
                  + ": start_timestamp '"
                  + value
                  + "' is not a timestamp (expected e.g. 2026-02-12 10:54:00)");
        }
      }
    }
  }

  /** A count the view always has: blank is refused rather than read as 0. */
  static long required(String value, String column, Path file, int line) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(
          file
              + " line "
              + line
              + ": "
              + column
              + " is blank; the view always has a count there (0 or more): fix the line or export"
              + " again");
    }
    return parseLong(value, column, file, line);
  }

  static long parseLong(String value, String column, Path file, int line) {
    if (value == null || value.isBlank()) {
      return 0;
    }
    long n;
    try {
      n = Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          file + " line " + line + ": " + column + " '" + value + "' is not a whole number");
    }
    if (n < 0) {
      throw new IllegalArgumentException(
          file
              + " line "
              + line
              + ": "
              + column
              + " "
              + n
              + " is negative; the view's"
              + " counts are 0 or more: fix or remove that line");
    }
    return n;
  }
}
