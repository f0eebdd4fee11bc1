package dev.ingestbench.bigquery;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.WireFormat;
import dev.ingestbench.events.TaxiRide;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.events.TaxiRideJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Every visible row's content against the event its index must produce: the publishers generate
 * each event from its index and the seed ({@link TaxiRideGenerator}), so the server knows what a
 * row should hold without keeping anything. A typed row's ride columns are compared one by one; a
 * json-column row's {@code payload} is parsed and compared the same way, so a conversion that drops
 * or alters a column shows as a mismatched row, not as "exactly once".
 *
 * <p>Padding is not compared (its length depends on the message size, not on the event), nor are the
 * metadata columns the pipeline adds (subscription, publish and processing time).
 */
final class RowContent {
  /** The columns compared, by the names both row formats use. */
  private static final String[] RIDE_COLUMNS = {
    "ride_id", "ride_status", "latitude", "longitude", "passenger_count", "meter_reading", "meter_increment",
    "point_idx", "timestamp"
  };
  private static final String PAYLOAD = "payload";

  private final TaxiRideGenerator generator;
  /** Field number -> column name, for the compared columns this writer schema has. */
  private final Map<Integer, String> columns = new HashMap<>();
  private final Map<Integer, FieldDescriptorProto.Type> types = new HashMap<>();
  private final boolean typed;
  private final boolean jsonColumn;

  private RowContent(long seed, DescriptorProto writer) {
    this.generator = new TaxiRideGenerator(seed, 1);
    for (FieldDescriptorProto f : writer.getFieldList()) {
      String name = f.getName().toLowerCase(Locale.ROOT);
      if (name.equals(PAYLOAD) || java.util.Arrays.asList(RIDE_COLUMNS).contains(name)) {
        columns.put(f.getNumber(), name);
        types.put(f.getNumber(), f.getType());
      }
    }
    this.typed = columns.containsValue("ride_id");
    this.jsonColumn = !typed && columns.containsValue(PAYLOAD);
  }

  /** The check for rows of {@code writer}, or null when it has no columns to compare (another table). */
  static @Nullable RowContent of(long seed, DescriptorProto writer) {
    RowContent content = new RowContent(seed, writer);
    return content.typed || content.jsonColumn ? content : null;
  }

  /**
   * What is wrong with row {@code row} of event {@code index}, column by column ("ride_status is
   * 'pickup', expected 'enroute'"), or null when it holds what the event must produce.
   */
  @Nullable String check(ByteString row, long index) throws IOException {
    Map<String, Object> values = new HashMap<>();
    CodedInputStream in = row.newCodedInput();
    int tag;
    while ((tag = in.readTag()) != 0) {
      int number = WireFormat.getTagFieldNumber(tag);
      String column = columns.get(number);
      if (column == null) {
        in.skipField(tag);
        continue;
      }
      values.put(column, switch (types.get(number)) {
        case TYPE_STRING, TYPE_BYTES -> in.readBytes().toStringUtf8();
        case TYPE_DOUBLE -> in.readDouble();
        case TYPE_FLOAT -> (double) in.readFloat();
        default -> in.readInt64();
      });
    }
    TaxiRide expected = generator.event(index);
    if (jsonColumn) {
      Object payload = values.get(PAYLOAD);
      if (payload == null) {
        return "payload is missing";
      }
      TaxiRide actual;
      try {
        actual = TaxiRideJson.parse(payload.toString().getBytes(StandardCharsets.UTF_8));
      } catch (RuntimeException e) {
        return "payload is not the event's JSON: " + e.getMessage();
      }
      values.clear();
      values.put("ride_id", actual.rideId());
      values.put("ride_status", actual.rideStatus());
      values.put("latitude", actual.latitude());
      values.put("longitude", actual.longitude());
      values.put("passenger_count", (long) actual.passengerCount());
      values.put("meter_reading", actual.meterReading());
      values.put("meter_increment", actual.meterIncrement());
      values.put("point_idx", (long) actual.pointIdx());
      values.put("timestamp", micros(actual.timestamp()));
    }
    return compare(values, expected);
  }

  private static @Nullable String compare(Map<String, Object> actual, TaxiRide expected) {
    Object[] wanted = {
      expected.rideId(), expected.rideStatus(), expected.latitude(), expected.longitude(),
      (long) expected.passengerCount(), expected.meterReading(), expected.meterIncrement(),
      (long) expected.pointIdx(), micros(expected.timestamp())
    };
    StringBuilder wrong = new StringBuilder();
    for (int i = 0; i < RIDE_COLUMNS.length; i++) {
      Object got = actual.get(RIDE_COLUMNS[i]);
      if (!Objects.equals(got, wanted[i])) {
        wrong.append(wrong.length() == 0 ? "" : "; ").append(RIDE_COLUMNS[i]).append(" is ")
            .append(got == null ? "missing" : show(got)).append(", expected ").append(show(wanted[i]));
      }
    }
    return wrong.length() == 0 ? null : wrong.toString();
  }

  private static String show(Object value) {
    return value instanceof String s ? "'" + s + "'" : String.valueOf(value);
  }

  /** An event timestamp (ISO-8601 with offset) as epoch microseconds, the TIMESTAMP column's value. */
  private static Object micros(String timestamp) {
    try {
      return ChronoUnit.MICROS.between(java.time.Instant.EPOCH, OffsetDateTime.parse(timestamp).toInstant());
    } catch (RuntimeException e) {
      return timestamp; // compared as text: a row holding the same unparseable text is still equal
    }
  }

  /**
   * {@code row} with its first compared column altered, as a store that corrupts data would: a
   * string gains a character, a number grows by one. Every other field is kept as it was sent.
   */
  ByteString corrupt(ByteString row) throws IOException {
    ByteString.Output out = ByteString.newOutput(row.size() + 1);
    com.google.protobuf.CodedOutputStream coded = com.google.protobuf.CodedOutputStream.newInstance(out);
    CodedInputStream in = row.newCodedInput();
    boolean altered = false;
    int tag;
    while ((tag = in.readTag()) != 0) {
      int number = WireFormat.getTagFieldNumber(tag);
      if (altered || !columns.containsKey(number)) {
        in.skipField(tag, coded);
        continue;
      }
      altered = true;
      switch (types.get(number)) {
        case TYPE_STRING, TYPE_BYTES -> coded.writeBytes(number, in.readBytes().concat(ByteString.copyFromUtf8("~")));
        case TYPE_DOUBLE -> coded.writeDouble(number, in.readDouble() + 1);
        case TYPE_FLOAT -> coded.writeFloat(number, in.readFloat() + 1);
        default -> coded.writeInt64(number, in.readInt64() + 1);
      }
    }
    coded.flush();
    return out.toByteString();
  }
}
