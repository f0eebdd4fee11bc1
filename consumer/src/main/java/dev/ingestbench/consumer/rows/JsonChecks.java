package dev.ingestbench.consumer.rows;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.ingestbench.events.MalformedEventException;
import dev.ingestbench.events.MessageFormat;
import dev.ingestbench.events.TaxiRideJson;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Small checks and conversions every row encoding shares. */
final class JsonChecks {
  private JsonChecks() {}

  /**
   * The JSON column's text: a JSON payload as it came, an Avro payload decoded and written as the
   * JSON message of the same event; either way the event is checked first, as every route checks
   * it.
   *
   * @throws MalformedEventException naming what is wrong
   */
  static String payloadJson(MessageFormat message, byte[] payload) {
    if (message == MessageFormat.AVRO) {
      return new String(
          TaxiRideJson.toBytes(EventChecks.parse(message, payload)), StandardCharsets.UTF_8);
    }
    EventChecks.read(message, payload, EventChecks.DISCARD);
    return new String(payload, StandardCharsets.UTF_8);
  }

  static String attributesJson(Map<String, String> attributes) {
    try {
      return TaxiRideJson.MAPPER.writeValueAsString(attributes == null ? Map.of() : attributes);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a string map always serialises", e);
    }
  }
}
