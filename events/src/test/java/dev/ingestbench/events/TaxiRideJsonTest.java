package dev.ingestbench.events;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TaxiRideJsonTest {

  private static MalformedEventException parseFails(String text) {
    return assertThrows(
        MalformedEventException.class,
        () -> TaxiRideJson.parse(text.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void truncatedJsonIsMalformed() {
    assertTrue(parseFails("{\"ride_id\":\"r\",").getMessage().contains("not a taxi-ride event"));
  }

  @Test
  void aMissingRequiredFieldIsMalformedAndNamed() {
    String json =
        "{\"ride_id\":\"r\",\"ride_status\":\"pickup\",\"latitude\":1,\"longitude\":2,"
            + "\"passenger_count\":1,\"meter_reading\":1,\"meter_increment\":0.1,\"point_idx\":3}";
    assertTrue(parseFails(json).getMessage().contains("timestamp"));
  }

  @Test
  void aWrongTypeIsMalformed() {
    parseFails(
        "{\"ride_id\":\"r\",\"ride_status\":\"pickup\",\"latitude\":\"north\",\"longitude\":2,"
            + "\"passenger_count\":1,\"meter_reading\":1,\"meter_increment\":0.1,\"point_idx\":3,"
            + "\"timestamp\":\"2026-02-12T00:00:00.000000+00:00\"}");
  }

  @Test
  void nullAndNonJsonAreMalformed() {
    parseFails("null");
    parseFails("not json at all");
  }
}
