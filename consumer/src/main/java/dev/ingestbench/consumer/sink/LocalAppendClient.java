package dev.ingestbench.consumer.sink;

import com.google.api.core.ApiFuture;
import com.google.api.core.ApiFutures;
import com.google.cloud.bigquery.storage.v1.AppendRowsResponse;
import com.google.cloud.bigquery.storage.v1.ProtoRows;
import com.google.cloud.bigquery.storage.v1.TableSchema;
import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Int64Value;
import dev.ingestbench.consumer.rows.RowSchemas;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices.StreamAppendClient;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowToStorageApiProto;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One append client ("connection") to a local stream. Scans each row for its verification keys and
 * hands the batch to the stream; dead-letter rows are decoded in full to keep their error text.
 */
final class LocalAppendClient implements StreamAppendClient {
  private final LocalBigQuery sink;
  private final LocalWriteStream stream;
  private final RowKeyScanner scanner;
  private final @Nullable Descriptor deadLetterDescriptor;
  private final Runnable onRelease;
  private int pins;
  private boolean closed;
  private boolean released;

  LocalAppendClient(
      LocalBigQuery sink, LocalWriteStream stream, DescriptorProto descriptor, Runnable onRelease) {
    this.sink = sink;
    this.stream = stream;
    this.scanner = new RowKeyScanner(descriptor);
    this.onRelease = onRelease;
    Descriptor wrapped = null;
    if (stream.isDeadLetterTable()) {
      try {
        wrapped = TableRowToStorageApiProto.wrapDescriptorProto(descriptor);
      } catch (Exception e) {
        throw new IllegalStateException("cannot read the dead-letter row descriptor", e);
      }
    }
    this.deadLetterDescriptor = wrapped;
  }

  @Override
  public ApiFuture<AppendRowsResponse> appendRows(long offset, ProtoRows rows) throws Exception {
    int count = rows.getSerializedRowsCount();
    long[] eventIndexes = new long[count];
    long[] publishMicros = new long[count];
    String[] errors = deadLetterDescriptor == null ? null : new String[count];
    long[] keys = new long[2];
    long bytes = 0;
    for (int i = 0; i < count; i++) {
      ByteString row = rows.getSerializedRows(i);
      bytes += row.size();
      scanner.scan(row, keys);
      eventIndexes[i] = keys[0];
      publishMicros[i] = keys[1];
      if (errors != null) {
        errors[i] = errorOf(row);
      }
    }
    try {
      stream.append(offset, new VisibleRows(eventIndexes, publishMicros, errors, count), sink::makeVisible);
    } catch (LocalWriteStream.AppendRefusedException e) {
      sink.recordAppend(stream, count, bytes, e.errorCode);
      return ApiFutures.immediateFailedFuture(e);
    }
    sink.recordAppend(stream, count, bytes, "OK");
    AppendRowsResponse.Builder response = AppendRowsResponse.newBuilder();
    if (offset >= 0) {
      response.getAppendResultBuilder().setOffset(Int64Value.of(offset));
    }
    return ApiFutures.immediateFuture(response.build());
  }

  private String errorOf(ByteString row) throws Exception {
    DynamicMessage message = DynamicMessage.parseFrom(deadLetterDescriptor, row);
    FieldDescriptor field = deadLetterDescriptor.findFieldByName(RowSchemas.ERROR);
    return field == null ? null : String.valueOf(message.getField(field));
  }

  @Override
  public @Nullable TableSchema getUpdatedSchema() {
    return null;
  }

  @Override
  public synchronized void pin() {
    pins++;
  }

  @Override
  public synchronized void unpin() {
    pins--;
    releaseIfDone();
  }

  @Override
  public synchronized void close() {
    closed = true;
    releaseIfDone();
  }

  /** A client counts as an open connection until it is closed and no caller still holds a pin. */
  private void releaseIfDone() {
    if (closed && pins <= 0 && !released) {
      released = true;
      onRelease.run();
    }
  }
}
