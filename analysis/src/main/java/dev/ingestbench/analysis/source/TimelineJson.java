package dev.ingestbench.analysis.source;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ingestbench.analysis.model.TimelineRow;
import dev.ingestbench.contracts.TimelineColumns;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a WRITE_API_TIMELINE export as JSON: the array {@code bq query --format=json} prints, or JSON
 * lines (one object per line). Values may be strings or numbers, as bq renders them.
 */
final class TimelineJson {
  private static final ObjectMapper JSON = new ObjectMapper();

  private TimelineJson() {}

  static boolean looksLikeJson(Path file) throws IOException {
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      int c;
      while ((c = in.read()) != -1) {
        if (!Character.isWhitespace(c)) {
          return c == '[' || c == '{';
        }
      }
      return false;
    }
  }

  static List<TimelineRow> read(Path file) throws IOException {
    List<TimelineRow> rows = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
        JsonParser parser = JSON.getFactory().createParser(in)) {
      JsonToken first = parser.nextToken();
      int index = 0;
      if (first == JsonToken.START_ARRAY) {
        while (parser.nextToken() == JsonToken.START_OBJECT) {
          rows.add(row(JSON.readTree(parser), file, ++index));
        }
      } else {
        while (first == JsonToken.START_OBJECT) {
          rows.add(row(JSON.readTree(parser), file, ++index));
          first = parser.nextToken();
        }
      }
    }
    return rows;
  }

  private static TimelineRow row(JsonNode r, Path file, int index) throws IOException {
    for (String column : TimelineColumns.REQUIRED) {
      if (!r.has(column)) {
        throw new IOException(file + " record " + index + " has no '" + column
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
        TimelineCsv.parseLong(r.get("total_input_bytes").asText(), "total_input_bytes", file, index));
  }
}
