package dev.ingestbench.events;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * The Avro binary wire form of a {@link TaxiRide}: the record of {@code taxi_ride.avsc} (in this
 * package's resources), written without a container header, as a Kafka or Pub/Sub message carries
 * it.
 *
 * <p>Reading goes straight from the bytes into a {@link TaxiRideFields}, in schema order, with
 * Avro's own binary decoder; a payload that does not decode to exactly one record of this schema
 * (short, trailing bytes, a bad union branch, invalid UTF-8 in a string) is a {@link
 * MalformedEventException} naming the field.
 */
public final class TaxiRideAvro {
  /** The fields in schema order; {@link #SCHEMA} is checked against it as it loads. */
  private static final String[] FIELD_ORDER = {
    "ride_id", "ride_status", "latitude", "longitude", "passenger_count",
    "meter_reading", "meter_increment", "point_idx", "timestamp", "_padding"
  };

  /** The schema every ingestbench Avro message is written with. */
  public static final Schema SCHEMA = loadSchema();

  private static final ThreadLocal<BinaryDecoder> DECODERS = new ThreadLocal<>();
  private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[256]);

  private TaxiRideAvro() {}

  private static Schema loadSchema() {
    try (InputStream in = TaxiRideAvro.class.getResourceAsStream("taxi_ride.avsc")) {
      Schema schema = new Schema.Parser().parse(in);
      for (int i = 0; i < FIELD_ORDER.length; i++) {
        if (!schema.getFields().get(i).name().equals(FIELD_ORDER[i])) {
          throw new IllegalStateException(
              "taxi_ride.avsc field " + i + " is not " + FIELD_ORDER[i]);
        }
      }
      return schema;
    } catch (IOException e) {
      throw new UncheckedIOException("taxi_ride.avsc is missing from the events jar", e);
    }
  }

  /** The Avro bytes of {@code ride}, with its padding (if any) in the {@code _padding} field. */
  public static byte[] toBytes(TaxiRide ride) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    try {
      encoder.writeString(ride.rideId());
      encoder.writeString(ride.rideStatus());
      encoder.writeDouble(ride.latitude());
      encoder.writeDouble(ride.longitude());
      encoder.writeInt(ride.passengerCount());
      encoder.writeDouble(ride.meterReading());
      encoder.writeDouble(ride.meterIncrement());
      encoder.writeInt(ride.pointIdx());
      encoder.writeString(ride.timestamp());
      if (ride.padding() == null) {
        encoder.writeIndex(0);
      } else {
        encoder.writeIndex(1);
        encoder.writeString(ride.padding());
      }
      encoder.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory cannot fail", e);
    }
    return out.toByteArray();
  }

  /**
   * Parses a message payload into a {@link TaxiRide}.
   *
   * @throws MalformedEventException naming what is wrong
   */
  public static TaxiRide parse(byte[] payload) {
    TaxiRideCollector ride = new TaxiRideCollector();
    read(payload, ride);
    return ride.build();
  }

  /**
   * Decodes {@code payload} into {@code fields}, in schema order.
   *
   * @throws MalformedEventException naming the field where decoding failed
   */
  public static void read(byte[] payload, TaxiRideFields fields) {
    if (payload == null || payload.length == 0) {
      throw new MalformedEventException("payload is not an Avro taxi-ride record: it is empty");
    }
    BinaryDecoder in = DecoderFactory.get().binaryDecoder(payload, DECODERS.get());
    DECODERS.set(in);
    int field = 0;
    try {
      fields.rideId(string(in, payload.length));
      field++;
      fields.rideStatus(string(in, payload.length));
      field++;
      fields.latitude(in.readDouble());
      field++;
      fields.longitude(in.readDouble());
      field++;
      fields.passengerCount(in.readInt());
      field++;
      fields.meterReading(in.readDouble());
      field++;
      fields.meterIncrement(in.readDouble());
      field++;
      fields.pointIdx(in.readInt());
      field++;
      fields.timestamp(string(in, payload.length));
      field++;
      int branch = in.readIndex();
      if (branch == 1) {
        fields.padding(string(in, payload.length));
      } else if (branch != 0) {
        throw new MalformedEventException(
            "payload is not an Avro taxi-ride record: '_padding' has union branch "
                + branch
                + ", the schema has 0 (null) and 1 (string)");
      }
      if (!in.isEnd()) {
        throw new MalformedEventException(
            "payload is not an Avro taxi-ride record: bytes left after the last field (written with"
                + " another schema than taxi_ride.avsc?)");
      }
    } catch (EOFException e) {
      throw new MalformedEventException(
          "payload is not an Avro taxi-ride record: it ends inside '"
              + FIELD_ORDER[field]
              + "' ("
              + payload.length
              + " bytes; written with another schema than taxi_ride.avsc?)",
          e);
    } catch (IOException | AvroRuntimeException | UnsupportedOperationException e) {
      throw new MalformedEventException(
          "payload is not an Avro taxi-ride record: '"
              + FIELD_ORDER[field]
              + "': "
              + e.getMessage(),
          e);
    }
  }

  /** Avro string bytes as text; invalid UTF-8 is an error, not replacement characters. */
  private static String string(BinaryDecoder in, int payloadLength) throws IOException {
    // The length is checked against the payload before anything is allocated: a corrupt length
    // must not make the decoder reserve gigabytes.
    long declared = in.readLong();
    if (declared < 0 || declared > payloadLength) {
      throw new IOException(
          "a string length of " + declared + " in a " + payloadLength + "-byte payload");
    }
    int length = (int) declared;
    byte[] bytes = SCRATCH.get();
    if (bytes.length < length) {
      bytes = new byte[Math.max(length, bytes.length * 2)];
      SCRATCH.set(bytes);
    }
    in.readFixed(bytes, 0, length);
    for (int i = 0; i < length; i++) {
      if (bytes[i] < 0) {
        return strictUtf8(bytes, length);
      }
    }
    return new String(
        bytes, 0, length, StandardCharsets.ISO_8859_1); // ASCII: the common case, fast
  }

  private static String strictUtf8(byte[] bytes, int length) throws IOException {
    try {
      CharBuffer text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes, 0, length));
      return text.toString();
    } catch (CharacterCodingException e) {
      throw new IOException("a string that is not valid UTF-8", e);
    }
  }
}
