package dev.ingestbench.consumer.rows;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.ingestbench.events.MalformedEventException;
import dev.ingestbench.events.MessageFormat;
import dev.ingestbench.events.TaxiRideAvro;
import dev.ingestbench.events.TaxiRideJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Small checks and conversions every row encoding shares. */
final class JsonChecks {
  private static final JsonFactory JSON = TaxiRideJson.MAPPER.getFactory();

  private JsonChecks() {}

  /** Validates without building a tree: a JSON column must hold one well-formed JSON object. */
  static void requireJsonObject(byte[] payload) {
    try (JsonParser parser = JSON.createParser(payload)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new MalformedEventException("payload is not a JSON object");
      }
      parser.skipChildren();
      if (parser.nextToken() != null) {
        throw new MalformedEventException("payload has data after its JSON object");
      }
    } catch (IOException e) {
      throw new MalformedEventException(
          "payload is not valid JSON: " + e.getMessage().lines().findFirst().orElse(""), e);
    }
  }

  /**
   * The JSON column's text: a JSON payload as it came (checked to be one object), an Avro payload
   * decoded and written as the JSON message of the same event.
   */
  static String payloadJson(MessageFormat message, byte[] payload) {
    if (message == MessageFormat.AVRO) {
      return new String(TaxiRideJson.toBytes(TaxiRideAvro.parse(payload)), StandardCharsets.UTF_8);
    }
    requireJsonObject(payload);
    return new String(payload, StandardCharsets.UTF_8);
  }

  static String attributesJson(Map<String, String> attributes) {
    try {
      return TaxiRideJson.MAPPER.writeValueAsString(attributes == null ? Map.of() : attributes);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a string map always serialises", e);
    }
  }

  /** An ISO-8601 timestamp with offset (the events' form) as epoch microseconds. */
  static long timestampMicros(String value) {
    return EventTimestamps.toMicros(value);
  }
}
