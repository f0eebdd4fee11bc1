package dev.ingestbench.consumer.rows;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.ingestbench.consumer.rows.proto.TypedRow;
import dev.ingestbench.events.MalformedEventException;
import dev.ingestbench.events.TaxiRideJson;
import java.io.IOException;

/**
 * Streams a taxi-ride payload straight into a {@link TypedRow.Builder}, for {@code
 * --rowEncoding=proto}: no tree, no POJO. It accepts exactly what {@link TaxiRideJson#parse} accepts
 * (the same required fields, types and no unknown fields; TypedRowParserTest runs both over valid,
 * missing, mistyped, null, unknown and trailing inputs), and names what is wrong otherwise.
 */
final class TypedRowParser {
  private static final JsonFactory JSON = TaxiRideJson.MAPPER.getFactory();
  private static final String[] REQUIRED = {
    "ride_id", "ride_status", "latitude", "longitude", "passenger_count",
    "meter_reading", "meter_increment", "point_idx", "timestamp"
  };
  private static final int ALL_REQUIRED = (1 << REQUIRED.length) - 1;

  private TypedRowParser() {}

  static void parseInto(byte[] payload, TypedRow.Builder row) {
    int seen = 0;
    try (JsonParser p = JSON.createParser(payload)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new MalformedEventException("payload is not a taxi-ride event: not a JSON object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        switch (name) {
          case "ride_id" -> { row.setRideId(text(p, value, name)); seen |= 1; }
          case "ride_status" -> { row.setRideStatus(text(p, value, name)); seen |= 1 << 1; }
          case "latitude" -> { row.setLatitude(number(p, value, name)); seen |= 1 << 2; }
          case "longitude" -> { row.setLongitude(number(p, value, name)); seen |= 1 << 3; }
          case "passenger_count" -> { row.setPassengerCount(integer(p, value, name)); seen |= 1 << 4; }
          case "meter_reading" -> { row.setMeterReading(number(p, value, name)); seen |= 1 << 5; }
          case "meter_increment" -> { row.setMeterIncrement(number(p, value, name)); seen |= 1 << 6; }
          case "point_idx" -> { row.setPointIdx(integer(p, value, name)); seen |= 1 << 7; }
          case "timestamp" -> {
            row.setTimestamp(EventTimestamps.toMicros(text(p, value, name)));
            seen |= 1 << 8;
          }
          case "_padding" -> {
            if (value != JsonToken.VALUE_NULL) {
              row.setPadding(text(p, value, name));
            }
          }
          default -> throw new MalformedEventException(
              "payload is not a taxi-ride event: unknown field \"" + name + "\"");
        }
      }
      if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
        throw new MalformedEventException("payload is not a taxi-ride event: data after the object");
      }
    } catch (IOException e) {
      throw new MalformedEventException(
          "payload is not a taxi-ride event: " + e.getMessage().lines().findFirst().orElse(""), e);
    }
    if (seen != ALL_REQUIRED) {
      for (int i = 0; i < REQUIRED.length; i++) {
        if ((seen & (1 << i)) == 0) {
          throw new MalformedEventException(
              "payload is not a taxi-ride event: missing required field '" + REQUIRED[i] + "'");
        }
      }
    }
  }

  private static String text(JsonParser p, JsonToken t, String name) throws IOException {
    if (t != JsonToken.VALUE_STRING) {
      throw wrongType(name, "a string", t);
    }
    return p.getText();
  }

  private static double number(JsonParser p, JsonToken t, String name) throws IOException {
    if (t != JsonToken.VALUE_NUMBER_FLOAT && t != JsonToken.VALUE_NUMBER_INT) {
      throw wrongType(name, "a number", t);
    }
    return p.getDoubleValue();
  }

  private static long integer(JsonParser p, JsonToken t, String name) throws IOException {
    if (t != JsonToken.VALUE_NUMBER_INT) {
      throw wrongType(name, "a whole number", t);
    }
    return p.getIntValue();
  }

  private static MalformedEventException wrongType(String name, String expected, JsonToken got) {
    return new MalformedEventException(
        "payload is not a taxi-ride event: '" + name + "' must be " + expected + ", not " + got);
  }
}
