package dev.ingestbench.events;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;

/**
 * The JSON wire form of a {@link TaxiRide}: one shared, thread-safe mapper for the whole project,
 * and the one reader of a JSON message that every consumer route and the BigQuery emulator's
 * content check use.
 *
 * <p>Reading streams the payload's tokens straight into a {@link TaxiRideFields} (no tree, no
 * object), strictly: exactly one JSON object, every required field once, each of its type (a number
 * sent as text, a fraction where a count belongs or a null is malformed, not coerced), no unknown
 * field, nothing after the object. What is wrong is named, for the dead-letter table.
 */
public final class TaxiRideJson {

  /** Shared mapper; Jackson mappers are thread-safe once configured. Strict, as the reader is. */
  public static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true)
          .configure(DeserializationFeature.ACCEPT_FLOAT_AS_INT, false)
          .configure(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, true)
          .configure(MapperFeature.ALLOW_COERCION_OF_SCALARS, false)
          .build();

  private static final ObjectWriter WRITER = MAPPER.writerFor(TaxiRide.class);
  private static final JsonFactory JSON = MAPPER.getFactory();
  private static final String NOT_AN_EVENT = "payload is not a taxi-ride event: ";
  private static final String[] REQUIRED = {
    "ride_id",
    "ride_status",
    "latitude",
    "longitude",
    "passenger_count",
    "meter_reading",
    "meter_increment",
    "point_idx",
    "timestamp"
  };
  private static final int ALL_REQUIRED = (1 << REQUIRED.length) - 1;
  private static final int PADDING = 1 << REQUIRED.length;

  private TaxiRideJson() {}

  public static byte[] toBytes(TaxiRide ride) {
    try {
      return WRITER.writeValueAsBytes(ride);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a TaxiRide always serialises", e);
    }
  }

  /**
   * Parses a message payload.
   *
   * @throws MalformedEventException naming what is wrong when the bytes are not a taxi-ride event
   */
  public static TaxiRide parse(byte[] payload) {
    TaxiRideCollector ride = new TaxiRideCollector();
    read(payload, ride);
    return ride.build();
  }

  /**
   * Reads a message payload into {@code fields}, in the order the payload has them ({@code padding}
   * only when present and not null).
   *
   * @throws MalformedEventException naming what is wrong when the bytes are not a taxi-ride event
   */
  public static void read(byte[] payload, TaxiRideFields fields) {
    if (payload.length == 0) {
      throw new MalformedEventException(
          "payload is empty: a JSON message must be one taxi-ride object");
    }
    int seen = 0;
    try (JsonParser p = JSON.createParser(payload)) {
      JsonToken first = p.nextToken();
      if (first != JsonToken.START_OBJECT) {
        throw new MalformedEventException(
            first == null
                ? "payload holds no JSON value (only white space): a JSON message must be one taxi-ride object"
                : NOT_AN_EVENT + "it is " + describe(first) + ", not a JSON object");
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        int bit =
            switch (name) {
              case "ride_id" -> {
                fields.rideId(text(p, value, name));
                yield 1;
              }
              case "ride_status" -> {
                fields.rideStatus(text(p, value, name));
                yield 1 << 1;
              }
              case "latitude" -> {
                fields.latitude(number(p, value, name));
                yield 1 << 2;
              }
              case "longitude" -> {
                fields.longitude(number(p, value, name));
                yield 1 << 3;
              }
              case "passenger_count" -> {
                fields.passengerCount(integer(p, value, name));
                yield 1 << 4;
              }
              case "meter_reading" -> {
                fields.meterReading(number(p, value, name));
                yield 1 << 5;
              }
              case "meter_increment" -> {
                fields.meterIncrement(number(p, value, name));
                yield 1 << 6;
              }
              case "point_idx" -> {
                fields.pointIdx(integer(p, value, name));
                yield 1 << 7;
              }
              case "timestamp" -> {
                fields.timestamp(text(p, value, name));
                yield 1 << 8;
              }
              case "_padding" -> {
                if (value != JsonToken.VALUE_NULL) {
                  fields.padding(text(p, value, name));
                }
                yield PADDING;
              }
              default ->
                  throw new MalformedEventException(
                      NOT_AN_EVENT + "unknown field \"" + name + "\"");
            };
        if ((seen & bit) != 0) {
          // Jackson keeps the last of two equal keys; which one a reader believes is not for us to
          // guess.
          throw new MalformedEventException(
              NOT_AN_EVENT + "the field '" + name + "' appears twice");
        }
        seen |= bit;
      }
      if (p.currentToken() != JsonToken.END_OBJECT) {
        throw new MalformedEventException(NOT_AN_EVENT + "the object does not end");
      }
      JsonToken after = p.nextToken();
      if (after != null) {
        throw new MalformedEventException(
            "payload has data after its JSON object ("
                + describe(after)
                + "): a message must hold one event; two concatenated events are two messages");
      }
    } catch (StreamConstraintsException e) {
      throw new MalformedEventException(
          NOT_AN_EVENT + "over the JSON reader's limits: " + firstLine(e), e);
    } catch (IOException e) {
      throw new MalformedEventException(NOT_AN_EVENT + "not valid JSON: " + firstLine(e), e);
    }
    for (int i = 0; i < REQUIRED.length; i++) {
      if ((seen & (1 << i)) == 0) {
        throw new MalformedEventException(
            NOT_AN_EVENT + "missing required field '" + REQUIRED[i] + "'");
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
    double value = p.getDoubleValue();
    if (Double.isInfinite(value)) {
      throw new MalformedEventException(
          NOT_AN_EVENT + "'" + name + "' is " + p.getText() + ", beyond what a FLOAT64 holds");
    }
    return value;
  }

  private static int integer(JsonParser p, JsonToken t, String name) throws IOException {
    if (t != JsonToken.VALUE_NUMBER_INT) {
      throw wrongType(name, "a whole number", t);
    }
    if (p.getNumberType() != JsonParser.NumberType.INT) {
      throw new MalformedEventException(
          NOT_AN_EVENT
              + "'"
              + name
              + "' is "
              + p.getText()
              + ", out of range (a 32-bit whole number)");
    }
    return p.getIntValue();
  }

  private static MalformedEventException wrongType(String name, String expected, JsonToken got) {
    return new MalformedEventException(
        NOT_AN_EVENT + "'" + name + "' must be " + expected + ", not " + describe(got));
  }

  /** A token as a person names it. */
  private static String describe(JsonToken t) {
    return switch (t) {
      case START_OBJECT -> "an object";
      case START_ARRAY -> "an array";
      case VALUE_STRING -> "a string";
      case VALUE_NUMBER_INT -> "a whole number";
      case VALUE_NUMBER_FLOAT -> "a number with a fraction";
      case VALUE_TRUE, VALUE_FALSE -> "a boolean";
      case VALUE_NULL -> "null";
      default -> t.toString();
    };
  }

  /** Jackson's first line, without the source excerpt it appends. */
  private static String firstLine(IOException e) {
    String message =
        e instanceof JsonProcessingException j
            ? j.getOriginalMessage()
            : String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
