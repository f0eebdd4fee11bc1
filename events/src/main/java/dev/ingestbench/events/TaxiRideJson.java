package dev.ingestbench.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.JsonMappingException;
import java.io.IOException;

/** The JSON wire form of a {@link TaxiRide}: one shared, thread-safe mapper for the whole project. */
public final class TaxiRideJson {

  /**
   * Shared mapper; Jackson mappers are thread-safe once configured. Strict on purpose: a number sent
   * as text, a fraction where a count belongs or a null is a malformed event for the dead-letter
   * table, not something to coerce silently.
   */
  public static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true)
          .configure(DeserializationFeature.ACCEPT_FLOAT_AS_INT, false)
          .configure(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, true)
          .configure(MapperFeature.ALLOW_COERCION_OF_SCALARS, false)
          .build();

  private static final ObjectWriter WRITER = MAPPER.writerFor(TaxiRide.class);
  private static final ObjectReader READER = MAPPER.readerFor(TaxiRide.class);

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
    try {
      TaxiRide ride = READER.readValue(payload);
      if (ride == null) {
        throw new MalformedEventException("payload is JSON null, expected a taxi-ride object");
      }
      requireText("ride_id", ride.rideId());
      requireText("ride_status", ride.rideStatus());
      requireText("timestamp", ride.timestamp());
      return ride;
    } catch (IOException e) {
      throw new MalformedEventException("payload is not a taxi-ride event: " + firstLine(e), e);
    }
  }

  private static void requireText(String field, String value) {
    if (value == null) {
      throw new MalformedEventException("payload is not a taxi-ride event: '" + field + "' is null");
    }
  }

  /** Jackson's first line, after the field it was reading when it knows one. */
  private static String firstLine(IOException e) {
    String message = e instanceof JsonMappingException m ? m.getOriginalMessage() : String.valueOf(e.getMessage());
    if (e instanceof JsonMappingException m && !m.getPath().isEmpty() && m.getPath().get(0).getFieldName() != null) {
      message = "'" + m.getPath().get(0).getFieldName() + "': " + message;
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
