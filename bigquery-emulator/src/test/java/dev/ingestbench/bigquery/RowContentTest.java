package dev.ingestbench.bigquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.cloud.bigquery.storage.v1.ProtoRows;
import com.google.cloud.bigquery.storage.v1.ProtoSchema;
import com.google.cloud.bigquery.storage.v1.StreamWriter;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.events.TaxiRide;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.events.TaxiRideJson;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Every row's content against the event its index must produce, through the official client: typed
 * rows and json-column rows, right, wrong in one column, and altered by the store itself.
 */
class RowContentTest {
  private static final long SEED = 42;
  private static final TaxiRideGenerator EVENTS = new TaxiRideGenerator(SEED, 500);

  @Test
  void rightRowsPassAndAWrongColumnIsNamed() throws Exception {
    try (BigQueryEmulator server = BigQueryEmulator.start(EmulatorSettings.defaults());
        OfficialClient bq = new OfficialClient(server)) {
      server.contentSeed(SEED);
      String typed = createTable(server, "typed", TYPED_COLUMNS);
      String json =
          createTable(
              server,
              "json",
              "{\"name\":\"event_index\",\"type\":\"INTEGER\"},"
                  + "{\"name\":\"payload\",\"type\":\"JSON\"}");
      try (StreamWriter w =
          bq.writer(typed + "/streams/_default", "typed").setWriterSchema(TYPED_SCHEMA).build()) {
        w.append(typedRows(0, 100, r -> r)).get();
        w.append(
                typedRows(
                    100,
                    1,
                    r ->
                        new TaxiRide(
                            r.rideId(),
                            "teleported",
                            r.latitude(),
                            r.longitude(),
                            r.passengerCount(),
                            r.meterReading(),
                            r.meterIncrement(),
                            r.pointIdx(),
                            r.timestamp(),
                            null)))
            .get();
      }
      try (StreamWriter w =
          bq.writer(json + "/streams/_default", "json").setWriterSchema(JSON_SCHEMA).build()) {
        w.append(jsonRows(0, 50, r -> r)).get();
        w.append(
                jsonRows(
                    50,
                    1,
                    r ->
                        new TaxiRide(
                            r.rideId(),
                            r.rideStatus(),
                            r.latitude(),
                            r.longitude(),
                            r.passengerCount() + 1,
                            r.meterReading(),
                            r.meterIncrement(),
                            r.pointIdx(),
                            r.timestamp(),
                            null)))
            .get();
      }
      EmulatorStatus.Job t = server.status().job("typed");
      assertEquals(101, t.distinctMessageIds());
      assertEquals(1, t.mismatchedRows(), t.mismatches().toString());
      assertEquals(
          List.of(
              "event_index 100: ride_status is 'teleported', expected '"
                  + EVENTS.event(100).rideStatus()
                  + "'"),
          t.mismatches());
      EmulatorStatus.Job j = server.status().job("json");
      assertEquals(1, j.mismatchedRows(), j.mismatches().toString());
      assertTrue(
          j.mismatches().get(0).startsWith("event_index 50: passenger_count is "),
          j.mismatches().toString());
    }
  }

  @Test
  void textAfterTheEventsJsonIsAMismatch() throws Exception {
    RowContent content = RowContent.of(SEED, JSON_SCHEMA.getProtoDescriptor());
    ByteString.Output out = ByteString.newOutput();
    CodedOutputStream c = CodedOutputStream.newInstance(out);
    c.writeInt64(1, 3);
    c.writeString(
        2, new String(TaxiRideJson.toBytes(EVENTS.event(3)), StandardCharsets.UTF_8) + "{}");
    c.flush();
    assertTrue(content.check(out.toByteString(), 3).startsWith("payload is not the event's JSON"));
  }

  @Test
  void aStoreThatCorruptsRowsIsCaughtRowForRow() throws Exception {
    try (BigQueryEmulator server =
            BigQueryEmulator.start(EmulatorSettings.defaults().withFaults(List.of("corrupt=0.5")));
        OfficialClient bq = new OfficialClient(server)) {
      server.contentSeed(SEED);
      String typed = createTable(server, "typed", TYPED_COLUMNS);
      try (StreamWriter w =
          bq.writer(typed + "/streams/_default", "typed").setWriterSchema(TYPED_SCHEMA).build()) {
        for (int batch = 0; batch < 6; batch++) {
          w.append(typedRows(batch * 10, 10, r -> r)).get();
        }
      }
      String json =
          createTable(
              server,
              "json",
              "{\"name\":\"event_index\",\"type\":\"INTEGER\"},"
                  + "{\"name\":\"payload\",\"type\":\"JSON\"}");
      try (StreamWriter w =
          bq.writer(json + "/streams/_default", "json").setWriterSchema(JSON_SCHEMA).build()) {
        for (int batch = 0; batch < 4; batch++) {
          w.append(jsonRows(batch * 10, 10, r -> r)).get();
        }
      }
      EmulatorStatus status = server.status();
      assertEquals(5, status.rowsCorrupted());
      assertEquals(3, status.job("typed").mismatchedRows(), "exactly the rows the store altered");
      assertEquals(60, status.job("typed").distinctMessageIds());
      assertEquals(
          2,
          status.job("json").mismatchedRows(),
          "a payload with one value changed: " + status.job("json"));
    }
  }

  private static final String TYPED_COLUMNS =
      "{\"name\":\"event_index\",\"type\":\"INTEGER\"},"
          + "{\"name\":\"ride_id\",\"type\":\"STRING\"},{\"name\":\"ride_status\",\"type\":\"STRING\"},"
          + "{\"name\":\"latitude\",\"type\":\"FLOAT64\"},{\"name\":\"longitude\",\"type\":\"FLOAT64\"},"
          + "{\"name\":\"passenger_count\",\"type\":\"INT64\"},{\"name\":\"meter_reading\",\"type\":\"FLOAT64\"},"
          + "{\"name\":\"meter_increment\",\"type\":\"FLOAT64\"},{\"name\":\"point_idx\",\"type\":\"INT64\"},"
          + "{\"name\":\"timestamp\",\"type\":\"TIMESTAMP\"}";

  private static final ProtoSchema TYPED_SCHEMA =
      schema(
          "event_index:INT64",
          "ride_id:STRING",
          "ride_status:STRING",
          "latitude:DOUBLE",
          "longitude:DOUBLE",
          "passenger_count:INT64",
          "meter_reading:DOUBLE",
          "meter_increment:DOUBLE",
          "point_idx:INT64",
          "timestamp:INT64");
  private static final ProtoSchema JSON_SCHEMA = schema("event_index:INT64", "payload:STRING");

  private static ProtoSchema schema(String... fields) {
    DescriptorProto.Builder row = DescriptorProto.newBuilder().setName("Row");
    for (int i = 0; i < fields.length; i++) {
      String[] f = fields[i].split(":");
      row.addField(
          FieldDescriptorProto.newBuilder()
              .setName(f[0])
              .setNumber(i + 1)
              .setType(FieldDescriptorProto.Type.valueOf("TYPE_" + f[1]))
              .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL));
    }
    return ProtoSchema.newBuilder().setProtoDescriptor(row).build();
  }

  private static ProtoRows typedRows(long from, int count, UnaryOperator<TaxiRide> change)
      throws Exception {
    ProtoRows.Builder rows = ProtoRows.newBuilder();
    for (long i = from; i < from + count; i++) {
      TaxiRide r = change.apply(EVENTS.event(i));
      ByteString.Output out = ByteString.newOutput();
      CodedOutputStream c = CodedOutputStream.newInstance(out);
      c.writeInt64(1, i);
      c.writeString(2, r.rideId());
      c.writeString(3, r.rideStatus());
      c.writeDouble(4, r.latitude());
      c.writeDouble(5, r.longitude());
      c.writeInt64(6, r.passengerCount());
      c.writeDouble(7, r.meterReading());
      c.writeDouble(8, r.meterIncrement());
      c.writeInt64(9, r.pointIdx());
      c.writeInt64(
          10,
          ChronoUnit.MICROS.between(
              Instant.EPOCH, OffsetDateTime.parse(r.timestamp()).toInstant()));
      c.flush();
      rows.addSerializedRows(out.toByteString());
    }
    return rows.build();
  }

  private static ProtoRows jsonRows(long from, int count, UnaryOperator<TaxiRide> change)
      throws Exception {
    ProtoRows.Builder rows = ProtoRows.newBuilder();
    for (long i = from; i < from + count; i++) {
      ByteString.Output out = ByteString.newOutput();
      CodedOutputStream c = CodedOutputStream.newInstance(out);
      c.writeInt64(1, i);
      c.writeString(
          2,
          new String(TaxiRideJson.toBytes(change.apply(EVENTS.event(i))), StandardCharsets.UTF_8));
      c.flush();
      rows.addSerializedRows(out.toByteString());
    }
    return rows.build();
  }

  private static String createTable(BigQueryEmulator server, String table, String columns)
      throws Exception {
    return OfficialClient.createTable(server.restUrl(), "p", "d", table, "[" + columns + "]");
  }
}
