package dev.ingestbench.events;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TaxiRideAvroTest {
  private static final TaxiRideGenerator AVRO = new TaxiRideGenerator(3, 1, MessageFormat.AVRO);

  @Test
  void everyEventSurvivesTheRoundTrip() {
    for (long i = 0; i < 5_000; i += 3) {
      TaxiRide ride = AVRO.event(i);
      assertEquals(ride, TaxiRideAvro.parse(AVRO.message(i)), "event " + i);
    }
  }

  @Test
  void unpaddedMessagesAreAbout88Bytes() {
    // The reference rounds' production messages: ~88 bytes of Avro with the same fields.
    long total = 0;
    int count = 0;
    for (long i = 0; i < 400_000_000L; i += 4_000_001L) {
      int size = AVRO.message(i).length;
      assertTrue(size >= 80 && size <= 95, "event " + i + " is " + size + " bytes");
      total += size;
      count++;
    }
    assertEquals(88, total / (double) count, 3);
  }

  @ParameterizedTest
  @ValueSource(ints = {100, 128, 129, 200, 500, 10_000})
  void paddedMessagesHaveExactlyTheRequestedSize(int size) {
    TaxiRideGenerator padded = new TaxiRideGenerator(5, size, MessageFormat.AVRO);
    for (long i = 0; i < 300; i++) {
      byte[] message = padded.message(i);
      assertEquals(size, message.length, "event " + i);
      assertEquals(padded.event(i).rideId(), TaxiRideAvro.parse(message).rideId());
    }
  }

  @Test
  void messagesAreStandardAvroThatAnyReaderOfTheSchemaDecodes() throws Exception {
    byte[] message = new TaxiRideGenerator(9, 200, MessageFormat.AVRO).message(17);
    GenericRecord record =
        new GenericDatumReader<GenericRecord>(TaxiRideAvro.SCHEMA)
            .read(null, DecoderFactory.get().binaryDecoder(message, null));
    TaxiRide ride = new TaxiRideGenerator(9, 200).event(17);
    assertEquals(ride.rideId(), record.get("ride_id").toString());
    assertEquals(ride.latitude(), (double) record.get("latitude"));
    assertEquals(ride.timestamp(), record.get("timestamp").toString());
    assertTrue(record.get("_padding").toString().startsWith("xxx"));
  }

  @Test
  void truncatedMessagesNameTheFieldTheyEndIn() {
    byte[] message = AVRO.message(1);
    byte[] truncated = Arrays.copyOf(message, message.length - 20);
    MalformedEventException e =
        assertThrows(MalformedEventException.class, () -> TaxiRideAvro.parse(truncated));
    assertTrue(e.getMessage().contains("ends inside 'timestamp'"), e.getMessage());
  }

  @Test
  void jsonSentToTheAvroConsumerIsMalformedNotGarbage() {
    byte[] json = new TaxiRideGenerator(1, 500).message(1);
    MalformedEventException e =
        assertThrows(MalformedEventException.class, () -> TaxiRideAvro.parse(json));
    assertTrue(
        e.getMessage().startsWith("payload is not an Avro taxi-ride record"), e.getMessage());
  }

  @Test
  void aCorruptLengthIsRefusedBeforeAnythingIsAllocated() {
    byte[] bad = {(byte) 0xfe, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07, 'r', 'i', 'd', 'e'};
    MalformedEventException e =
        assertThrows(MalformedEventException.class, () -> TaxiRideAvro.parse(bad));
    assertTrue(
        e.getMessage().contains("'ride_id'") && e.getMessage().contains("string length"),
        e.getMessage());
  }

  @Test
  void invalidUtf8InAStringIsMalformedNotReplaced() {
    TaxiRide ride = AVRO.event(2);
    byte[] message = TaxiRideAvro.toBytes(ride);
    byte[] statusBytes = ride.rideStatus().getBytes(StandardCharsets.UTF_8);
    int at = indexOf(message, statusBytes);
    message[at] = (byte) 0xC3; // a lead byte followed by ASCII: invalid UTF-8
    MalformedEventException e =
        assertThrows(MalformedEventException.class, () -> TaxiRideAvro.parse(message));
    assertTrue(
        e.getMessage().contains("'ride_status'") && e.getMessage().contains("UTF-8"),
        e.getMessage());
  }

  @Test
  void aBadUnionBranchIsNamed() {
    byte[] message = AVRO.message(4);
    message[message.length - 1] = 4; // branch 2 (zig-zag 4): the union has only null and string
    MalformedEventException e =
        assertThrows(MalformedEventException.class, () -> TaxiRideAvro.parse(message));
    assertTrue(e.getMessage().contains("union branch 2"), e.getMessage());
  }

  @Test
  void aRecordOfAnotherSchemaIsRefusedWithTheReason() throws Exception {
    // A producer that added a field at the end: the bytes decode as far as our schema goes, then
    // there is more - that must not be silently dropped.
    Schema other =
        SchemaBuilder.record("TaxiRide")
            .fields()
            .requiredString("ride_id")
            .requiredString("ride_status")
            .requiredDouble("latitude")
            .requiredDouble("longitude")
            .requiredInt("passenger_count")
            .requiredDouble("meter_reading")
            .requiredDouble("meter_increment")
            .requiredInt("point_idx")
            .requiredString("timestamp")
            .optionalString("_padding")
            .requiredString("driver")
            .endRecord();
    TaxiRide ride = AVRO.event(5);
    GenericRecord record = new GenericData.Record(other);
    record.put("ride_id", ride.rideId());
    record.put("ride_status", ride.rideStatus());
    record.put("latitude", ride.latitude());
    record.put("longitude", ride.longitude());
    record.put("passenger_count", ride.passengerCount());
    record.put("meter_reading", ride.meterReading());
    record.put("meter_increment", ride.meterIncrement());
    record.put("point_idx", ride.pointIdx());
    record.put("timestamp", ride.timestamp());
    record.put("driver", "d-1");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(other).write(record, encoder);
    encoder.flush();
    MalformedEventException e =
        assertThrows(MalformedEventException.class, () -> TaxiRideAvro.parse(out.toByteArray()));
    assertTrue(e.getMessage().contains("bytes left after the last field"), e.getMessage());
  }

  @Test
  void emptyPayloadIsMalformed() {
    assertThrows(MalformedEventException.class, () -> TaxiRideAvro.parse(new byte[0]));
  }

  @Test
  void theSameSeedGivesTheSameBytes() {
    assertArrayEquals(
        AVRO.message(77), new TaxiRideGenerator(3, 1, MessageFormat.AVRO).message(77));
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new AssertionError("not found");
  }
}
