package dev.ingestbench.analysis.source;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ingestbench.analysis.model.TimelineRow;
import dev.ingestbench.contracts.TimelineColumns;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a WRITE_API_TIMELINE export as JSON: the array {@code bq query --format=json} prints, or
 * JSON lines (one object per line). Values may be strings or numbers, as bq renders them.
 */
final class TimelineJson {
  // Made when a JSON file is read, not when the class is first touched: every CSV read asks
  // looksLikeJson first, and an ObjectMapper's set-up is a tenth of a second of a short command.
  private static final class Mapper {
    static final ObjectMapper JSON = new ObjectMapper();
  }

  private TimelineJson() {}

  static boolean looksLikeJson(Path file) throws IOException {
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      int c;
      while ((c = in.read()) != -1) {
        if (!Character.isWhitespace(c) && c != '\uFEFF') { // a byte-order mark is not content
          return c == '[' || c == '{';
        }
      }
      return false;
    }
  }

  static List<TimelineRow> read(Path file) throws IOException {
    List<TimelineRow> rows = new ArrayList<>();
    Map<TimelineRow.Key, Integer> seen = new HashMap<>();
    // The line the record being read starts on: what a refusal names (record numbers are not lines,
    // and a record cut short is only found wrong where the file ends).
    int line = 0;
    // From bytes, not a Reader: Jackson then detects the encoding and skips a byte-order mark.
    try (JsonParser parser = Mapper.JSON.getFactory().createParser(file.toFile())) {
      JsonToken first = parser.nextToken();
      int index = 0;
      boolean array = first == JsonToken.START_ARRAY;
      JsonToken next = array ? parser.nextToken() : first;
      while (next == JsonToken.START_OBJECT) {
        line = parser.currentTokenLocation().getLineNr();
        index++;
        TimelineRow row = row(Mapper.JSON.readTree(parser), file, line);
        Integer earlier = seen.putIfAbsent(row.key(), index);
        if (earlier != null) {
          throw new IllegalArgumentException(
              file
                  + " record "
                  + index
                  + " (line "
                  + line
                  + ") repeats record "
                  + earlier
                  + " (the same"
                  + " table, minute, stream type and error code): the view has one row for each, so adding both would"
                  + " count those rows twice; export again, or remove the repeated records");
        }
        rows.add(row);
        next = parser.nextToken();
      }
      if (next != null && !(array && next == JsonToken.END_ARRAY)) {
        throw new IllegalArgumentException(
            file
                + " line "
                + parser.currentLocation().getLineNr()
                + ": expected a"
                + " timeline record ({...}), found "
                + next
                + "; export with bq --format=json or as JSON lines");
      }
    } catch (JsonProcessingException e) {
      int at = e.getLocation().getLineNr();
      throw new IllegalArgumentException(
          file
              + " line "
              + (line > 0 && line < at ? line : at)
              + ": not valid JSON ("
              + e.getOriginalMessage()
              + (line > 0 && line < at
                  ? "; the record that starts there is broken by line " + at
                  : "")
              + "); export again with bq --format=json, or as JSON lines");
    }
    return rows;
  }

  /** A record starting at line {@code index} of {@code file}. */
  private static TimelineRow row(JsonNode r, Path file, int index) {
    for (String column : TimelineColumns.REQUIRED) {
      if (!r.has(column)) {
        throw new IllegalArgumentException(
            file
                + " line "
                + index
                + ": the record has no '"
                + column
                + "': export WRITE_API_TIMELINE with the view's column names");
      }
    }
    return new TimelineRow(
        TimelineCsv.parseTimestamp(r.get("start_timestamp").asText(), file, index),
        r.path("project_id").asText(""),
        r.path("dataset_id").asText(""),
        r.get("table_id").asText(),
        r.path("stream_type").asText(""),
        r.path("error_code").asText(""),
        TimelineCsv.parseLong(r.path("total_requests").asText("0"), "total_requests", file, index),
        TimelineCsv.parseLong(r.get("total_rows").asText(), "total_rows", file, index),
        TimelineCsv.parseLong(
            r.get("total_input_bytes").asText(), "total_input_bytes", file, index));
  }
}
