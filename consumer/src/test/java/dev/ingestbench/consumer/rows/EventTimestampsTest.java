package dev.ingestbench.consumer.rows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ingestbench.events.MalformedEventException;
import dev.ingestbench.events.TaxiRideGenerator;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EventTimestampsTest {
  private static long reference(String value) {
    OffsetDateTime t = OffsetDateTime.parse(value, DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    return t.toEpochSecond() * 1_000_000L + t.getNano() / 1_000;
  }

  @Test
  void agreesWithTheJavaTimeParserOnEveryGeneratedEvent() {
    TaxiRideGenerator generator = new TaxiRideGenerator(4, 500);
    for (long i = 0; i < 5_000; i++) {
      String ts = generator.event(i).timestamp();
      assertEquals(reference(ts), EventTimestamps.toMicros(ts), ts);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "2026-02-26T23:41:14.905703+08:00", "2026-02-26T23:41:14Z", "2026-02-26T23:41:14.9Z",
        "1969-12-31T23:59:59.999999-05:30", "2024-02-29T00:00:00.123456789+00:00",
            "2026-02-26T23:41:14.905+14:00"
      })
  void fixedShapesMatchTheReference(String value) {
    assertEquals(reference(value), EventTimestamps.toMicros(value));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "not-a-time",
        "2026-02-30T00:00:00Z",
        "2026-02-26 23:41:14+08:00",
        "2026-02-26T23:41:14",
        ""
      })
  void anythingElseIsMalformedAndNamed(String value) {
    String message =
        assertThrows(MalformedEventException.class, () -> EventTimestamps.toMicros(value))
            .getMessage();
    assertEquals(
        "payload is not a taxi-ride event: timestamp '"
            + value
            + "' is not an ISO-8601 timestamp with an"
            + " offset (e.g. 2026-02-12T09:02:50.123456+08:00)",
        message);
  }
}
