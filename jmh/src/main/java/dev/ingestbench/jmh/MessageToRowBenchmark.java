package dev.ingestbench.jmh;

import com.google.api.services.bigquery.model.TableRow;
import dev.ingestbench.consumer.rows.MessageMetadata;
import dev.ingestbench.consumer.rows.MessageToRow;
import dev.ingestbench.consumer.rows.RowFormat;
import dev.ingestbench.events.MessageAttributes;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The consumer's own message-to-TableRow step, per row, for each row format and message size: the
 * first stage of every encoding route. Calls {@link MessageToRow}, the code the pipeline runs.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class MessageToRowBenchmark {
  @Param({"500", "10000"})
  public int messageSizeBytes;

  @Param({"json-column", "typed"})
  public String rowFormat;

  private byte[] payload;
  private MessageMetadata metadata;
  private RowFormat format;

  @Setup
  public void setup() {
    payload = new TaxiRideGenerator(1, messageSizeBytes).message(42);
    metadata =
        new MessageMetadata(
            "bench-sub", "1234567890", Map.of(MessageAttributes.EVENT_INDEX, "42"), 1_770_854_400_000_000L, 1_770_854_401_000_000L);
    format = RowFormat.fromFlag(rowFormat);
  }

  @Benchmark
  public TableRow messageToRow() {
    return MessageToRow.convert(format, metadata, payload);
  }
}
