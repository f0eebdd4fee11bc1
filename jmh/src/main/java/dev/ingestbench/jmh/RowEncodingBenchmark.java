package dev.ingestbench.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.cloud.bigquery.storage.v1.JsonToProtoMessage;
import com.google.cloud.bigquery.storage.v1.TableSchema;
import com.google.protobuf.Descriptors.Descriptor;
import dev.ingestbench.consumer.rows.MessageMetadata;
import dev.ingestbench.consumer.rows.MessageToBeamRow;
import dev.ingestbench.consumer.rows.MessageToProto;
import dev.ingestbench.consumer.rows.MessageToRow;
import dev.ingestbench.consumer.rows.RowSchemas;
import dev.ingestbench.consumer.rows.StorageApiBytes;
import dev.ingestbench.contracts.job.RowFormat;
import dev.ingestbench.events.MessageAttributes;
import dev.ingestbench.events.TaxiRide;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.events.TaxiRideJson;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowToStorageApiProto;
import org.json.JSONObject;
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
 * The consumer's per-row cost from message bytes to the bytes the Storage Write API appends, one
 * method per route, single-threaded. Every route calls the consumer's own code ({@link
 * MessageToRow}, {@link MessageToBeamRow}, {@link MessageToProto}) and Beam's public conversion
 * functions through {@link StorageApiBytes}, exactly as BigQueryIO's write path calls them.
 *
 * <p>A fixed set of distinct messages is cycled so the branch predictor and caches do not see one
 * message only; each call returns its result so the JIT cannot drop the work.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(2)
public class RowEncodingBenchmark {
  private static final int MESSAGES = 256;

  @Param({"500", "10000"})
  public int messageSizeBytes;

  private byte[][] payloads;
  private MessageMetadata metadata;
  private StorageApiBytes jsonColumnBytes;
  private StorageApiBytes typedBytes;
  private Descriptor typedDescriptor;
  private TableSchema typedProtoSchema;
  private int next;

  @Setup
  public void setup() throws Exception {
    TaxiRideGenerator generator = new TaxiRideGenerator(1, messageSizeBytes);
    payloads = new byte[MESSAGES][];
    for (int i = 0; i < MESSAGES; i++) {
      payloads[i] = generator.message(i);
    }
    metadata =
        new MessageMetadata(
            "bench-sub",
            "17949514610735406",
            Map.of(MessageAttributes.EVENT_INDEX, "42"),
            1_770_854_400_000_000L,
            1_770_854_401_000_000L);
    jsonColumnBytes = new StorageApiBytes(RowFormat.JSON_COLUMN);
    typedBytes = new StorageApiBytes(RowFormat.TYPED);
    typedDescriptor =
        TableRowToStorageApiProto.getDescriptorFromTableSchema(
            RowSchemas.forFormat(RowFormat.TYPED), true, false);
    typedProtoSchema =
        TableRowToStorageApiProto.schemaToProtoTableSchema(RowSchemas.forFormat(RowFormat.TYPED));
  }

  private byte[] nextPayload() {
    next = (next + 1) & (MESSAGES - 1);
    return payloads[next];
  }

  /** Lower bound: touching the bytes once. */
  @Benchmark
  public byte[] bytesCopy() {
    byte[] payload = nextPayload();
    return Arrays.copyOf(payload, payload.length);
  }

  /** Parse only: bytes to a Jackson tree. */
  @Benchmark
  public JsonNode parseTree() throws Exception {
    return TaxiRideJson.MAPPER.readTree(nextPayload());
  }

  /** Parse only: bytes to the event POJO. */
  @Benchmark
  public TaxiRide parsePojo() {
    return TaxiRideJson.parse(nextPayload());
  }

  /** --rowEncoding=tablerow --rowFormat=json-column: the reference rounds' shape. */
  @Benchmark
  public byte[] jsonColumn() throws Exception {
    return jsonColumnBytes.fromTableRow(
        MessageToRow.convert(RowFormat.JSON_COLUMN, metadata, nextPayload()));
  }

  /** --rowEncoding=tablerow --rowFormat=typed: the baseline. */
  @Benchmark
  public byte[] tablerowTyped() throws Exception {
    return typedBytes.fromTableRow(MessageToRow.convert(RowFormat.TYPED, metadata, nextPayload()));
  }

  /** --rowEncoding=beam-row --rowFormat=typed. */
  @Benchmark
  public byte[] beamRow() {
    return typedBytes.fromBeamRow(
        MessageToBeamRow.convert(RowFormat.TYPED, metadata, nextPayload()));
  }

  /** --rowEncoding=proto --rowFormat=typed: what writeProtos appends, with no conversion after. */
  @Benchmark
  public byte[] proto() {
    return MessageToProto.convert(RowFormat.TYPED, metadata, nextPayload()).toByteArray();
  }

  /** Reference, not offered by the consumer: google-cloud-bigquerystorage's JSON-to-proto path. */
  @Benchmark
  public byte[] jsonStreamWriter() {
    JSONObject row = new JSONObject(new String(nextPayload(), StandardCharsets.UTF_8));
    row.put("subscription_name", metadata.subscriptionName());
    row.put("message_id", metadata.messageId());
    row.put("event_index", 42L);
    row.put("publish_time", metadata.publishMicros());
    row.put("processing_time", metadata.processingMicros());
    return JsonToProtoMessage.INSTANCE
        .convertToProtoMessage(typedDescriptor, typedProtoSchema, row, false)
        .toByteArray();
  }
}
