package dev.ingestbench.bigquery;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import dev.ingestbench.events.TaxiRide;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.events.TaxiRideJson;
import java.io.IOException;

/**
 * Checks generated rows of both row formats once, on a background thread as the emulator starts, so
 * that the JIT compiles the row check (JSON parsing, the event generator, timestamp formatting)
 * before a pipeline writes. Without it those compilations ran in the first seconds of the write, on
 * the cores the pipeline under test was being measured on.
 */
final class RowCheckWarmUp {
  /**
   * Rows of each format: enough for the server JIT's thresholds (ChildJvm's SERVER_JIT compiles a
   * method with C2 after 50,000 calls).
   */
  static final int ROWS = 60_000;

  private RowCheckWarmUp() {}

  /**
   * A run that will check fewer rows than this is not warmed up: its own rows would hardly make the
   * JIT compile the check, and the warm-up (~2 CPU-seconds) would only add work.
   */
  static final long MIN_PUBLISHED = 100_000;

  /**
   * Starts the warm-up on a daemon thread (which does not keep the emulator from stopping), where
   * {@code published} messages are expected; returns at once.
   */
  static void startFor(long seed, long published) {
    if (published < MIN_PUBLISHED) {
      return;
    }
    Thread t = new Thread(() -> run(seed, ROWS), "row-check-warm-up");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Checks {@code rows} generated rows of each format; returns how many the check found wrong (0:
   * the warm-up ran the path real rows take, not the one that names a mismatch).
   */
  static long run(long seed, int rows) {
    DescriptorProto json =
        DescriptorProto.newBuilder()
            .setName("warm_up_json")
            .addField(field("payload", 1, Type.TYPE_STRING))
            .build();
    DescriptorProto typed =
        DescriptorProto.newBuilder()
            .setName("warm_up_typed")
            .addField(field("ride_id", 1, Type.TYPE_STRING))
            .addField(field("ride_status", 2, Type.TYPE_STRING))
            .addField(field("latitude", 3, Type.TYPE_DOUBLE))
            .addField(field("longitude", 4, Type.TYPE_DOUBLE))
            .addField(field("passenger_count", 5, Type.TYPE_INT64))
            .addField(field("meter_reading", 6, Type.TYPE_DOUBLE))
            .addField(field("meter_increment", 7, Type.TYPE_DOUBLE))
            .addField(field("point_idx", 8, Type.TYPE_INT64))
            .addField(field("timestamp", 9, Type.TYPE_INT64))
            .build();
    RowContent jsonCheck = RowContent.of(seed, json);
    RowContent typedCheck = RowContent.of(seed, typed);
    TaxiRideGenerator generator = new TaxiRideGenerator(seed, 1);
    long wrong = 0;
    try {
      for (long i = 0; i < rows; i++) {
        TaxiRide e = generator.event(i);
        wrong += jsonCheck.check(jsonRow(e), i) == null ? 0 : 1;
        wrong += typedCheck.check(typedRow(e), i) == null ? 0 : 1;
      }
    } catch (IOException | RuntimeException e) {
      // A warm-up that fails only leaves the JIT cold: the rows a pipeline writes are checked
      // anyway.
      return -1;
    }
    return wrong;
  }

  private static FieldDescriptorProto field(String name, int number, Type type) {
    return FieldDescriptorProto.newBuilder().setName(name).setNumber(number).setType(type).build();
  }

  private static ByteString jsonRow(TaxiRide e) throws IOException {
    ByteString.Output out = ByteString.newOutput(256);
    CodedOutputStream coded = CodedOutputStream.newInstance(out);
    coded.writeByteArray(1, TaxiRideJson.toBytes(e));
    coded.flush();
    return out.toByteString();
  }

  private static ByteString typedRow(TaxiRide e) throws IOException {
    ByteString.Output out = ByteString.newOutput(128);
    CodedOutputStream coded = CodedOutputStream.newInstance(out);
    coded.writeString(1, e.rideId());
    coded.writeString(2, e.rideStatus());
    coded.writeDouble(3, e.latitude());
    coded.writeDouble(4, e.longitude());
    coded.writeInt64(5, e.passengerCount());
    coded.writeDouble(6, e.meterReading());
    coded.writeDouble(7, e.meterIncrement());
    coded.writeInt64(8, e.pointIdx());
    coded.writeInt64(9, RowContent.epochMicros(e.timestamp()));
    coded.flush();
    return out.toByteString();
  }
}
