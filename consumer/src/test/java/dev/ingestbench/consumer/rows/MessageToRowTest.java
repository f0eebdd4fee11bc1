package dev.ingestbench.consumer.rows;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableRow;
import dev.ingestbench.contracts.job.RowFormat;
import dev.ingestbench.events.MalformedEventException;
import dev.ingestbench.events.MessageAttributes;
import dev.ingestbench.events.TaxiRide;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.events.TaxiRideJson;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class MessageToRowTest {
  private static final TaxiRideGenerator GENERATOR = new TaxiRideGenerator(5, 500);
  private static final MessageMetadata METADATA =
      new MessageMetadata(
          "sub-a", "m-1", Map.of(MessageAttributes.EVENT_INDEX, "77"), 1_000_000L, 2_000_000L);

  @Test
  void jsonColumnRowKeepsThePayloadAndMetadataAsTheReferenceRoundsDid() throws Exception {
    byte[] payload = GENERATOR.message(77);
    TableRow row = MessageToRow.convert(RowFormat.JSON_COLUMN, METADATA, payload);
    assertEquals("sub-a", row.get("subscription_name"));
    assertEquals("m-1", row.get("message_id"));
    assertEquals(77L, row.get("event_index"));
    assertEquals(1_000_000L, row.get("publish_time"));
    assertEquals(2_000_000L, row.get("processing_time"));
    assertEquals(new String(payload, StandardCharsets.UTF_8), row.get("payload"));
    JsonNode attributes = TaxiRideJson.MAPPER.readTree((String) row.get("attributes"));
    assertEquals("77", attributes.get("event_index").asText());
    assertColumnsAreInSchema(row, RowFormat.JSON_COLUMN);
  }

  @Test
  void typedRowHasEveryPayloadFieldAsAColumn() {
    TaxiRide ride = GENERATOR.event(77);
    TableRow row = MessageToRow.convert(RowFormat.TYPED, METADATA, GENERATOR.message(77));
    assertEquals(ride.rideId(), row.get("ride_id"));
    assertEquals(ride.rideStatus(), row.get("ride_status"));
    assertEquals(ride.latitude(), row.get("latitude"));
    assertEquals((long) ride.passengerCount(), row.get("passenger_count"));
    assertEquals(ride.timestamp(), row.get("timestamp"));
    assertTrue(((String) row.get("_padding")).length() > 100, "500-byte messages carry padding");
    assertColumnsAreInSchema(row, RowFormat.TYPED);
  }

  @Test
  void aMessageWithoutAnEventIndexStillBecomesARow() {
    MessageMetadata foreign = new MessageMetadata("sub-a", "m-2", Map.of(), 1L, 2L);
    TableRow row = MessageToRow.convert(RowFormat.JSON_COLUMN, foreign, GENERATOR.message(2));
    assertNull(row.get("event_index"));
  }

  @Test
  void invalidJsonIsMalformedForTheJsonColumn() {
    MalformedEventException e =
        assertThrows(
            MalformedEventException.class,
            () ->
                MessageToRow.convert(
                    RowFormat.JSON_COLUMN,
                    METADATA,
                    "{\"ride_id\": ".getBytes(StandardCharsets.UTF_8)));
    assertTrue(e.getMessage().contains("not valid JSON"), e.getMessage());
  }

  @Test
  void aJsonArrayOrTrailingDataIsMalformedForTheJsonColumn() {
    assertThrows(
        MalformedEventException.class,
        () ->
            MessageToRow.convert(
                RowFormat.JSON_COLUMN, METADATA, "[1,2]".getBytes(StandardCharsets.UTF_8)));
    assertThrows(
        MalformedEventException.class,
        () ->
            MessageToRow.convert(
                RowFormat.JSON_COLUMN, METADATA, "{} {}".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void validJsonThatIsNotATaxiRideIsMalformedForEveryRowFormat() {
    byte[] other = "{\"hello\":\"world\"}".getBytes(StandardCharsets.UTF_8);
    assertThrows(
        MalformedEventException.class,
        () -> MessageToRow.convert(RowFormat.JSON_COLUMN, METADATA, other));
    assertThrows(
        MalformedEventException.class,
        () -> MessageToRow.convert(RowFormat.TYPED, METADATA, other));
  }

  @Test
  void aNonNumericEventIndexIsMalformedAndNamed() {
    MessageMetadata bad =
        new MessageMetadata("s", "m", Map.of(MessageAttributes.EVENT_INDEX, "seven"), 1L, 2L);
    MalformedEventException e =
        assertThrows(
            MalformedEventException.class,
            () -> MessageToRow.convert(RowFormat.JSON_COLUMN, bad, GENERATOR.message(1)));
    assertTrue(e.getMessage().contains("event_index"), e.getMessage());
  }

  @Test
  void deadLetterRowsCarryTheRawPayloadAndReason() {
    TableRow row =
        DeadLetters.forMessage(
            METADATA,
            77L,
            "garbage".getBytes(StandardCharsets.UTF_8),
            "parse",
            "payload is not valid JSON",
            5L);
    assertEquals(
        "garbage",
        new String(
            Base64.getDecoder().decode((String) row.get("payload")), StandardCharsets.UTF_8));
    assertEquals(7L, row.get("payload_bytes"));
    assertEquals("parse", row.get("error_stage"));
    assertEquals("payload is not valid JSON", row.get("error"));
    assertEquals(5L, row.get("failed_at"));
    Set<String> columns =
        RowSchemas.deadLetter().getFields().stream()
            .map(TableFieldSchema::getName)
            .collect(Collectors.toSet());
    assertTrue(
        columns.containsAll(row.keySet()),
        "every dead-letter column is in the schema: " + row.keySet());
  }

  @Test
  void rejectedRowsKeepTheirIdentityForTheDeadLetterTable() {
    TableRow rejected = MessageToRow.convert(RowFormat.TYPED, METADATA, GENERATOR.message(77));
    TableRow dead = DeadLetters.forRejectedRow(rejected, "bad TIMESTAMP", 9L);
    assertEquals(77L, dead.get("event_index"));
    assertEquals("bigquery", dead.get("error_stage"));
    assertTrue(
        new String(Base64.getDecoder().decode((String) dead.get("payload")), StandardCharsets.UTF_8)
            .contains("ride_id"));
    assertFalse(dead.containsKey("ride_id"));
  }

  private static void assertColumnsAreInSchema(TableRow row, RowFormat format) {
    Set<String> columns =
        RowSchemas.forFormat(format).getFields().stream()
            .map(TableFieldSchema::getName)
            .collect(Collectors.toSet());
    assertTrue(
        columns.containsAll(row.keySet()),
        "row columns " + row.keySet() + " not all in " + columns);
  }
}
