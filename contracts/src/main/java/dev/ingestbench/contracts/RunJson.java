package dev.ingestbench.contracts;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads and writes the JSON records of a run directory: record components in camelCase become
 * snake_case keys ({@code p50LatencyMs} is {@code p50_latency_ms}); keys a reader does not know are
 * skipped, so an older reader still reads a newer file.
 */
public final class RunJson {
  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(SerializationFeature.INDENT_OUTPUT);

  private RunJson() {}

  /**
   * Writes {@code file} whole or not at all: into a sibling first, then renamed over it, so a
   * process killed while writing (Ctrl-C during a round's shutdown) never leaves an empty or half
   * file.
   */
  public static void write(Path file, Object value) throws IOException {
    WholeFile.write(file, out -> MAPPER.writeValue(out, value));
  }

  /** The JSON of {@code value}, as served over HTTP. */
  public static String toJson(Object value) throws IOException {
    return MAPPER.writeValueAsString(value);
  }

  /** The JSON of {@code value} on one line, as a JSON Lines file holds it. */
  public static String toJsonLine(Object value) throws IOException {
    return MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(value);
  }

  public static <T> T fromJson(String json, Class<T> type) throws IOException {
    return MAPPER.readValue(json, type);
  }

  /** Reads {@code file}, naming it in the error when it is missing or not the expected record. */
  public static <T> T read(Path file, Class<T> type) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IOException(file + " is missing: is this the output directory of a run?");
    }
    try {
      return MAPPER.readValue(file.toFile(), type);
    } catch (IOException e) {
      throw new IOException(
          file + " is not a " + type.getSimpleName() + " file: " + e.getMessage(), e);
    }
  }
}
