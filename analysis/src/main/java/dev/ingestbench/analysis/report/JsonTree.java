package dev.ingestbench.analysis.report;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;

/**
 * Writes a report's tree of maps, lists, strings, numbers and booleans as indented JSON with
 * jackson-core's generator: the same text an ObjectMapper with {@code INDENT_OUTPUT} writes,
 * without setting up databind, which is a tenth of a second of a command that is over in under one.
 */
final class JsonTree {
  private JsonTree() {}

  static void write(Object tree, Path file) throws IOException {
    try (JsonGenerator out = new JsonFactory().createGenerator(file.toFile(), JsonEncoding.UTF8)) {
      out.useDefaultPrettyPrinter();
      // A write that fails half way leaves the file cut short, as an ObjectMapper leaves it: not
      // closed into valid JSON that would pass for a whole report.
      out.disable(JsonGenerator.Feature.AUTO_CLOSE_JSON_CONTENT);
      value(out, tree);
    }
  }

  private static void value(JsonGenerator out, Object v) throws IOException {
    if (v == null) {
      out.writeNull();
    } else if (v instanceof String s) {
      out.writeString(s);
    } else if (v instanceof Boolean b) {
      out.writeBoolean(b);
    } else if (v instanceof Integer || v instanceof Long) {
      out.writeNumber(((Number) v).longValue());
    } else if (v instanceof Double d) {
      out.writeNumber(d);
    } else if (v instanceof Map<?, ?> m) {
      out.writeStartObject();
      for (Map.Entry<?, ?> e : m.entrySet()) {
        out.writeFieldName(String.valueOf(e.getKey()));
        value(out, e.getValue());
      }
      out.writeEndObject();
    } else if (v instanceof Collection<?> c) {
      out.writeStartArray();
      for (Object item : c) {
        value(out, item);
      }
      out.writeEndArray();
    } else {
      // A new kind of value in the report must be added here, not written as whatever it prints.
      throw new IllegalArgumentException(
          "report.json has no rendering for " + v.getClass().getName() + ": " + v);
    }
  }
}
