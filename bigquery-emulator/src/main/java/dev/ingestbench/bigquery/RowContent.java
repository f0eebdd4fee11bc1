package dev.ingestbench.bigquery;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.WireFormat;
import dev.ingestbench.events.TaxiRide;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.events.TaxiRideJson;
import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Every visible row's content against the event its index must produce: the publishers generate
 * each event from its index and the seed ({@link TaxiRideGenerator}), so the server knows what a
 * row should hold without keeping anything. A typed row's ride columns are compared one by one; a
 * json-column row's {@code payload} is parsed and compared the same way, so a conversion that drops
 * or alters a column shows as a mismatched row, not as "exactly once".
 *
 * <p>Padding is not compared (its length depends on the message size, not on the event), nor are
 * the metadata columns the pipeline adds (subscription, publish and processing time).
 */
final class RowContent {
  /** The columns compared, by the names both row formats use. */
  private static final String[] RIDE_COLUMNS = {
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

  private static final String PAYLOAD = "payload";

  private final TaxiRideGenerator generator;

  /**
   * Field number -> position in {@link #RIDE_COLUMNS} (or {@link #PAYLOAD_POSITION}); -1: not
   * compared.
   */
  private final int[] positions;

  private final FieldDescriptorProto.Type[] types;
  private final boolean typed;
  private final boolean jsonColumn;
  private static final int PAYLOAD_POSITION = RIDE_COLUMNS.length;

  private RowContent(long seed, DescriptorProto writer) {
    this.generator = new TaxiRideGenerator(seed, 1);
    int max =
        writer.getFieldList().stream().mapToInt(FieldDescriptorProto::getNumber).max().orElse(0);
    this.positions = new int[Math.min(max, 4096) + 1];
    this.types = new FieldDescriptorProto.Type[positions.length];
    Arrays.fill(positions, -1);
    boolean anyRide = false;
    boolean payload = false;
    for (FieldDescriptorProto f : writer.getFieldList()) {
      String name = f.getName().toLowerCase(Locale.ROOT);
      int at = name.equals(PAYLOAD) ? PAYLOAD_POSITION : Arrays.asList(RIDE_COLUMNS).indexOf(name);
      if (at >= 0 && f.getNumber() < positions.length) {
        positions[f.getNumber()] = at;
        types[f.getNumber()] = f.getType();
        anyRide |= at == 0;
        payload |= at == PAYLOAD_POSITION;
      }
    }
    this.typed = anyRide;
    this.jsonColumn = !typed && payload;
  }

  /**
   * The check for rows of {@code writer}, or null when it has no columns to compare (another
   * table).
   */
  static @Nullable RowContent of(long seed, DescriptorProto writer) {
    RowContent content = new RowContent(seed, writer);
    return content.typed || content.jsonColumn ? content : null;
  }

  private int position(int number) {
    return number < positions.length ? positions[number] : -1;
  }

  /**
   * What is wrong with row {@code row} of event {@code index}, column by column ("ride_status is
   * 'pickup', expected 'enroute'"), or null when it holds what the event must produce.
   */
  @Nullable String check(ByteString row, long index) throws IOException {
    Object[] values = new Object[RIDE_COLUMNS.length + 1];
    CodedInputStream in = row.newCodedInput();
    int tag;
    while ((tag = in.readTag()) != 0) {
      int number = WireFormat.getTagFieldNumber(tag);
      int at = position(number);
      if (at < 0) {
        in.skipField(tag);
        continue;
      }
      values[at] =
          switch (types[number]) {
            case TYPE_STRING, TYPE_BYTES ->
                at == PAYLOAD_POSITION ? in.readBytes() : in.readBytes().toStringUtf8();
            case TYPE_DOUBLE -> in.readDouble();
            case TYPE_FLOAT -> (double) in.readFloat();
            default -> in.readInt64();
          };
    }
    TaxiRide expected = generator.event(index);
    if (jsonColumn) {
      if (!(values[PAYLOAD_POSITION] instanceof ByteString payload)) {
        return "payload is missing";
      }
      TaxiRide actual;
      try {
        actual = TaxiRideJson.parse(payload.toByteArray()); // strict: nothing may follow the object
      } catch (RuntimeException e) {
        return "payload is not the event's JSON: " + e.getMessage();
      }
      // Both timestamps are the event's text here: compared as text, without parsing either.
      return compare(fields(actual, actual.timestamp()), fields(expected, expected.timestamp()));
    }
    return compare(values, fields(expected, micros(expected.timestamp())));
  }

  private static Object[] fields(TaxiRide r, Object timestamp) {
    return new Object[] {
      r.rideId(),
      r.rideStatus(),
      r.latitude(),
      r.longitude(),
      (long) r.passengerCount(),
      r.meterReading(),
      r.meterIncrement(),
      (long) r.pointIdx(),
      timestamp
    };
  }

  private static @Nullable String compare(Object[] actual, Object[] wanted) {
    StringBuilder wrong = null;
    for (int i = 0; i < RIDE_COLUMNS.length; i++) {
      Object got = actual[i];
      if (!Objects.equals(got, wanted[i])) {
        wrong = wrong == null ? new StringBuilder() : wrong.append("; ");
        wrong
            .append(RIDE_COLUMNS[i])
            .append(" is ")
            .append(got == null ? "missing" : show(got))
            .append(", expected ")
            .append(show(wanted[i]));
      }
    }
    return wrong == null ? null : wrong.toString();
  }

  private static String show(Object value) {
    return value instanceof String s ? "'" + s + "'" : String.valueOf(value);
  }

  /**
   * An event timestamp (ISO-8601 with offset) as epoch microseconds, the TIMESTAMP column's value.
   */
  private static Object micros(String timestamp) {
    try {
      return epochMicros(timestamp);
    } catch (RuntimeException e) {
      return timestamp; // compared as text: a row holding the same unparseable text is still equal
    }
  }

  /** An event timestamp as the TIMESTAMP column holds it: microseconds since the epoch. */
  static long epochMicros(String timestamp) {
    return ChronoUnit.MICROS.between(Instant.EPOCH, OffsetDateTime.parse(timestamp).toInstant());
  }

  /**
   * A JSON payload with one value changed: its first digit, so the text is still the event's JSON.
   */
  private static String alterFirstDigit(String json) {
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      if (c >= '0' && c <= '9') {
        return json.substring(0, i) + (char) ('0' + (c - '0' + 1) % 10) + json.substring(i + 1);
      }
    }
    return json + "~";
  }

  /**
   * {@code row} with its first compared column altered, as a store that corrupts data would: a
   * string gains a character, a number grows by one. Every other field is kept as it was sent.
   */
  ByteString corrupt(ByteString row) throws IOException {
    ByteString.Output out = ByteString.newOutput(row.size() + 1);
    CodedOutputStream coded = CodedOutputStream.newInstance(out);
    CodedInputStream in = row.newCodedInput();
    boolean altered = false;
    int tag;
    while ((tag = in.readTag()) != 0) {
      int number = WireFormat.getTagFieldNumber(tag);
      if (altered || position(number) < 0) {
        in.skipField(tag, coded);
        continue;
      }
      altered = true;
      switch (types[number]) {
        case TYPE_STRING, TYPE_BYTES ->
            coded.writeBytes(
                number,
                position(number) == PAYLOAD_POSITION
                    ? ByteString.copyFromUtf8(alterFirstDigit(in.readBytes().toStringUtf8()))
                    : in.readBytes().concat(ByteString.copyFromUtf8("~")));
        case TYPE_DOUBLE -> coded.writeDouble(number, in.readDouble() + 1);
        case TYPE_FLOAT -> coded.writeFloat(number, in.readFloat() + 1);
        default -> coded.writeInt64(number, in.readInt64() + 1);
      }
    }
    coded.flush();
    return out.toByteString();
  }
}
