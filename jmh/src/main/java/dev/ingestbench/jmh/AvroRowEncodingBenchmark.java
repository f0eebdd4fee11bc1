package dev.ingestbench.jmh;

import dev.ingestbench.consumer.rows.MessageMetadata;
import dev.ingestbench.consumer.rows.MessageToBeamRow;
import dev.ingestbench.consumer.rows.MessageToProto;
import dev.ingestbench.consumer.rows.MessageToRow;
import dev.ingestbench.consumer.rows.StorageApiBytes;
import dev.ingestbench.contracts.job.RowFormat;
import dev.ingestbench.events.MessageAttributes;
import dev.ingestbench.events.MessageFormat;
import dev.ingestbench.events.TaxiRide;
import dev.ingestbench.events.TaxiRideAvro;
import dev.ingestbench.events.TaxiRideGenerator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The consumer's per-row cost for Avro messages ({@code --messageFormat=avro}), next to {@link
 * RowEncodingBenchmark}'s JSON routes: decode only, Avro straight to the typed proto, and Avro to a
 * TableRow (or Beam Row) then Beam's conversion to proto. 88 bytes is the reference rounds'
 * unpadded Avro event; 500 compares with the JSON routes at the same message size.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class AvroRowEncodingBenchmark {
  private static final int MESSAGES = 256;

  @Param({"88", "500"})
  public int messageSizeBytes;

  private byte[][] payloads;
  private MessageMetadata metadata;
  private StorageApiBytes typedBytes;
  private int next;

  @Setup
  public void setup() {
    TaxiRideGenerator generator = new TaxiRideGenerator(1, messageSizeBytes, MessageFormat.AVRO);
    payloads = new byte[MESSAGES][];
    for (int i = 0; i < MESSAGES; i++) {
      payloads[i] = generator.message(i);
    }
    metadata =
        new MessageMetadata(
            "bench-topic",
            "3-17949514",
            Map.of(MessageAttributes.EVENT_INDEX, "42"),
            1_770_854_400_000_000L,
            1_770_854_401_000_000L);
    typedBytes = new StorageApiBytes(RowFormat.TYPED);
  }

  private byte[] nextPayload() {
    next = (next + 1) & (MESSAGES - 1);
    return payloads[next];
  }

  /** Decode only: Avro bytes to the event. */
  @Benchmark
  public TaxiRide avroDecode() {
    return TaxiRideAvro.parse(nextPayload());
  }

  /** --messageFormat=avro --rowEncoding=proto: Avro fields straight into the appended proto. */
  @Benchmark
  public byte[] avroProto() {
    return MessageToProto.convert(MessageFormat.AVRO, RowFormat.TYPED, metadata, nextPayload())
        .toByteArray();
  }

  /**
   * --messageFormat=avro --rowEncoding=tablerow: Avro to TableRow, then Beam's TableRow-to-proto.
   */
  @Benchmark
  public byte[] avroTablerow() throws Exception {
    return typedBytes.fromTableRow(
        MessageToRow.convert(MessageFormat.AVRO, RowFormat.TYPED, metadata, nextPayload()));
  }

  /** --messageFormat=avro --rowEncoding=beam-row: Avro to a Beam Row, then Beam's Row-to-proto. */
  @Benchmark
  public byte[] avroBeamRow() {
    return typedBytes.fromBeamRow(
        MessageToBeamRow.convert(MessageFormat.AVRO, RowFormat.TYPED, metadata, nextPayload()));
  }
}
