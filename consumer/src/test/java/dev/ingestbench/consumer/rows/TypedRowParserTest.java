package dev.ingestbench.consumer.rows;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ingestbench.consumer.rows.proto.TypedRow;
import dev.ingestbench.events.MalformedEventException;
import dev.ingestbench.events.TaxiRideJson;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.MethodSource;

/** The proto route's streaming parser accepts and rejects exactly what the event POJO parser does. */
class TypedRowParserTest {
  private static final String VALID =
      "{\"ride_id\":\"r-1\",\"ride_status\":\"pickup\",\"latitude\":1.3,\"longitude\":103.8,"
          + "\"passenger_count\":2,\"meter_reading\":15.3,\"meter_increment\":0.03,\"point_idx\":7,"
          + "\"timestamp\":\"2026-02-26T23:41:14.905703+08:00\"";

  static Stream<String> payloads() {
    return Stream.of(
      VALID + "}",
      VALID + ",\"_padding\":\"xxxx\"}",
      VALID + ",\"_padding\":null}",
      "{\"latitude\":1,\"ride_status\":\"s\",\"ride_id\":\"r\",\"longitude\":2,\"passenger_count\":1,"
          + "\"meter_reading\":1,\"meter_increment\":1,\"point_idx\":1,\"timestamp\":\"2026-02-26T23:41:14Z\"}",
      VALID.replace("\"latitude\":1.3", "\"latitude\":\"1.3\"") + "}",
      VALID.replace("\"passenger_count\":2", "\"passenger_count\":2.5") + "}",
      VALID.replace("\"ride_id\":\"r-1\"", "\"ride_id\":null") + "}",
      VALID.replace("\"ride_id\":\"r-1\"", "\"ride_id\":{\"a\":1}") + "}",
      VALID.replace("\"latitude\":1.3", "\"latitude\":null") + "}",
      VALID.replace(",\"point_idx\":7", "") + "}",
      VALID + ",\"surprise\":1}",
      VALID + "} trailing",
      VALID,
      "[1,2]",
      "null",
      "");
  }

  @ParameterizedTest
  @MethodSource("payloads")
  void bothParsersAgree(String payload) {
    byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
    boolean pojoAccepts = accepts(() -> TaxiRideJson.parse(bytes));
    boolean streamAccepts = accepts(() -> TypedRowParser.parseInto(bytes, TypedRow.newBuilder()));
    assertEquals(pojoAccepts, streamAccepts, payload);
  }

  private static boolean accepts(Runnable parse) {
    try {
      parse.run();
      return true;
    } catch (MalformedEventException e) {
      return false;
    }
  }
}
