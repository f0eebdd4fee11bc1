package dev.ingestbench.consumer.sink;

import com.google.api.core.ApiFuture;
import com.google.api.core.ApiFutures;
import com.google.api.gax.grpc.GrpcStatusCode;
import com.google.api.gax.rpc.NotFoundException;
import com.google.api.services.bigquery.model.Dataset;
import com.google.api.services.bigquery.model.DatasetReference;
import com.google.api.services.bigquery.model.Table;
import com.google.api.services.bigquery.model.TableReference;
import com.google.api.services.bigquery.model.TableRow;
import com.google.cloud.bigquery.storage.v1.AppendRowsRequest;
import com.google.cloud.bigquery.storage.v1.BatchCommitWriteStreamsResponse;
import com.google.cloud.bigquery.storage.v1.FinalizeWriteStreamResponse;
import com.google.cloud.bigquery.storage.v1.FlushRowsResponse;
import com.google.cloud.bigquery.storage.v1.TableSchema;
import com.google.cloud.bigquery.storage.v1.WriteStream;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.Timestamp;
import io.grpc.Status;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryHelpers;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices.DatasetService;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices.StreamAppendClient;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices.WriteStreamService;
import org.apache.beam.sdk.io.gcp.bigquery.ErrorContainer;
import org.apache.beam.sdk.io.gcp.bigquery.InsertRetryPolicy;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowToStorageApiProto;
import org.apache.beam.sdk.values.FailsafeValueInSingleWindow;
import org.apache.beam.sdk.values.ValueInSingleWindow;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * An in-process BigQuery for local rounds: tables, and Storage Write API streams with BigQuery's
 * visibility rules (default stream at append, BUFFERED at flush, PENDING at commit).
 *
 * <p>Beam's real client-side write path (row to proto, streams, offsets, flush/finalize/commit) runs
 * unchanged against it. Instead of storing rows it verifies them as they become visible
 * ({@link WrittenRows}) and records every append in a {@link WriteTimeline}; it also counts open
 * append clients, the local stand-in for BigQuery's concurrent connections.
 */
public final class LocalBigQuery implements DatasetService, WriteStreamService {
  private static final Map<String, LocalBigQuery> REGISTRY = new ConcurrentHashMap<>();

  private final String id;
  private final Map<String, Table> tables = new ConcurrentHashMap<>();
  private final Map<String, LocalWriteStream> streams = new ConcurrentHashMap<>();
  private final WriteTimeline timeline = new WriteTimeline();
  private final WrittenRows written = new WrittenRows();
  private final AtomicInteger openAppendClients = new AtomicInteger();
  private final AtomicInteger peakAppendClients = new AtomicInteger();
  private final AtomicInteger appendClientsCreated = new AtomicInteger();

  private LocalBigQuery(String id) {
    this.id = id;
  }

  /** A new, empty sink registered under a fresh id (pipelines find it by that id). */
  public static LocalBigQuery create() {
    LocalBigQuery sink = new LocalBigQuery(UUID.randomUUID().toString());
    REGISTRY.put(sink.id, sink);
    return sink;
  }

  static LocalBigQuery lookup(String id) {
    LocalBigQuery sink = REGISTRY.get(id);
    if (sink == null) {
      throw new IllegalStateException(
          "no local BigQuery sink " + id + " in this JVM: the local sink only works with in-process"
              + " runners (FlinkRunner with --flinkMaster=[local], DirectRunner)");
    }
    return sink;
  }

  /** The services to hand to {@code BigQueryIO.Write.withTestServices}. */
  public LocalBigQueryServices services() {
    return new LocalBigQueryServices(id);
  }

  public WriteTimeline timeline() {
    return timeline;
  }

  public WrittenRows.Snapshot verification() {
    return written.snapshot();
  }

  public WrittenRows.Latencies latencies() {
    return written.latencies();
  }

  public int openAppendClients() {
    return openAppendClients.get();
  }

  public int peakAppendClients() {
    return peakAppendClients.get();
  }

  public int appendClientsCreated() {
    return appendClientsCreated.get();
  }

  /** Unregisters the sink; its counts stay readable. */
  public void release() {
    REGISTRY.remove(id);
  }

  // ---- DatasetService: tables and datasets (datasets always exist, as in a fresh project) ----

  @Override
  public @Nullable Table getTable(TableReference ref) {
    return tables.get(urn(ref));
  }

  @Override
  public @Nullable Table getTable(TableReference ref, @Nullable List<String> selectedFields) {
    return getTable(ref);
  }

  @Override
  public @Nullable Table getTable(
      TableReference ref, @Nullable List<String> selectedFields, @Nullable TableMetadataView view) {
    return getTable(ref);
  }

  @Override
  public void createTable(Table table) {
    tables.putIfAbsent(urn(table.getTableReference()), table);
  }

  @Override
  public void deleteTable(TableReference ref) {
    tables.remove(urn(ref));
  }

  @Override
  public boolean isTableEmpty(TableReference ref) throws IOException {
    if (!tables.containsKey(urn(ref))) {
      throw new IOException("table " + urn(ref) + " does not exist");
    }
    return timelineRowsFor(ref.getTableId()) == 0;
  }

  private long timelineRowsFor(String tableId) {
    return streams.values().stream()
        .filter(s -> s.tableId.equals(tableId))
        .mapToLong(s -> s.appended)
        .sum();
  }

  @Override
  public Dataset getDataset(String projectId, String datasetId) {
    return new Dataset()
        .setDatasetReference(new DatasetReference().setProjectId(projectId).setDatasetId(datasetId));
  }

  @Override
  public void createDataset(
      String projectId,
      String datasetId,
      @Nullable String location,
      @Nullable String description,
      @Nullable Long defaultTableExpirationMs) {}

  @Override
  public void deleteDataset(String projectId, String datasetId) {}

  @Override
  public <T> long insertAll(
      TableReference ref,
      List<FailsafeValueInSingleWindow<TableRow, TableRow>> rowList,
      @Nullable List<String> insertIdList,
      InsertRetryPolicy retryPolicy,
      List<ValueInSingleWindow<T>> failedInserts,
      ErrorContainer<T> errorContainer,
      boolean skipInvalidRows,
      boolean ignoreUnknownValues,
      boolean ignoreInsertIds,
      List<ValueInSingleWindow<TableRow>> successfulRows) {
    throw new UnsupportedOperationException(
        "the local BigQuery sink implements the Storage Write API only, not streaming inserts");
  }

  @Override
  public Table patchTableDescription(TableReference ref, @Nullable String description) {
    Table table = tables.get(urn(ref));
    if (table != null) {
      table.setDescription(description);
    }
    return table;
  }

  // ---- WriteStreamService: streams, appends, flush, finalize, commit ----

  @Override
  public WriteStream createWriteStream(String tableUrn, WriteStream.Type type) throws IOException {
    Table table = requireTable(tableUrn);
    String name = BigQueryHelpers.stripPartitionDecorator(tableUrn) + "/streams/" + UUID.randomUUID();
    streams.put(name, new LocalWriteStream(name, table.getTableReference(), type.name()));
    return WriteStream.newBuilder()
        .setName(name)
        .setType(type)
        .setTableSchema(TableRowToStorageApiProto.schemaToProtoTableSchema(table.getSchema()))
        .build();
  }

  @Override
  public @Nullable TableSchema getWriteStreamSchema(String streamName) {
    Table table = tables.get(tableUrnOf(streamName));
    return table == null ? null : TableRowToStorageApiProto.schemaToProtoTableSchema(table.getSchema());
  }

  @Override
  public StreamAppendClient getStreamAppendClient(
      String streamName,
      DescriptorProto descriptor,
      boolean useConnectionPool,
      AppendRowsRequest.MissingValueInterpretation missingValueInterpretation)
      throws IOException {
    LocalWriteStream stream = stream(streamName);
    int open = openAppendClients.incrementAndGet();
    peakAppendClients.accumulateAndGet(open, Math::max);
    appendClientsCreated.incrementAndGet();
    return new LocalAppendClient(this, stream, descriptor, openAppendClients::decrementAndGet);
  }

  /** The default stream exists for every table; other streams must have been created. */
  LocalWriteStream stream(String streamName) throws IOException {
    LocalWriteStream stream = streams.get(streamName);
    if (stream != null) {
      return stream;
    }
    if (streamName.endsWith("/streams/_default")) {
      Table table = requireTable(tableUrnOf(streamName));
      return streams.computeIfAbsent(
          streamName, n -> new LocalWriteStream(n, table.getTableReference(), "DEFAULT"));
    }
    throw notFound("write stream " + streamName + " does not exist");
  }

  @Override
  public ApiFuture<FlushRowsResponse> flush(String streamName, long flushOffset) throws IOException {
    LocalWriteStream stream = stream(streamName);
    stream.flush(flushOffset, this::makeVisible);
    return ApiFutures.immediateFuture(FlushRowsResponse.newBuilder().setOffset(flushOffset).build());
  }

  @Override
  public ApiFuture<FinalizeWriteStreamResponse> finalizeWriteStream(String streamName) {
    try {
      long rows = stream(streamName).finalizeStream();
      return ApiFutures.immediateFuture(
          FinalizeWriteStreamResponse.newBuilder().setRowCount(rows).build());
    } catch (IOException e) {
      return ApiFutures.immediateFailedFuture(e);
    }
  }

  @Override
  public ApiFuture<BatchCommitWriteStreamsResponse> commitWriteStreams(
      String tableUrn, Iterable<String> writeStreamNames) {
    try {
      for (String name : writeStreamNames) {
        stream(name).commit(this::makeVisible);
      }
    } catch (IOException | RuntimeException e) {
      return ApiFutures.immediateFailedFuture(e);
    }
    long nowMillis = System.currentTimeMillis();
    return ApiFutures.immediateFuture(
        BatchCommitWriteStreamsResponse.newBuilder()
            .setCommitTime(
                Timestamp.newBuilder()
                    .setSeconds(nowMillis / 1000)
                    .setNanos((int) (nowMillis % 1000) * 1_000_000))
            .build());
  }

  @Override
  public void close() {}

  // ---- called by streams and append clients ----

  void recordAppend(LocalWriteStream stream, long rows, long bytes, String errorCode) {
    timeline.record(
        System.currentTimeMillis(),
        stream.projectId,
        stream.datasetId,
        stream.tableId,
        stream.streamType,
        errorCode,
        rows,
        bytes);
  }

  /** Rows become visible in their table: verify them (or count them as dead letters). */
  void makeVisible(LocalWriteStream stream, VisibleRows rows) {
    if (stream.isDeadLetterTable()) {
      for (int i = 0; i < rows.count(); i++) {
        written.recordDeadLetter(rows.eventIndexes()[i], rows.errors() == null ? null : rows.errors()[i]);
      }
    } else {
      written.recordWritten(
          rows.eventIndexes(), rows.publishMicros(), rows.count(), System.currentTimeMillis());
    }
  }

  /** Missing tables fail as BigQuery fails them (gRPC NOT_FOUND), which is what makes Beam create them. */
  private Table requireTable(String tableUrn) {
    Table table = tables.get(BigQueryHelpers.stripPartitionDecorator(tableUrn));
    if (table == null) {
      throw notFound("table " + tableUrn + " does not exist");
    }
    return table;
  }

  private static NotFoundException notFound(String message) {
    return new NotFoundException(new IOException(message), GrpcStatusCode.of(Status.Code.NOT_FOUND), false);
  }

  private static String tableUrnOf(String streamName) {
    int streams = streamName.indexOf("/streams/");
    return streams < 0 ? streamName : streamName.substring(0, streams);
  }

  private static String urn(TableReference ref) {
    return String.format(
        "projects/%s/datasets/%s/tables/%s",
        ref.getProjectId(),
        ref.getDatasetId(),
        BigQueryHelpers.stripPartitionDecorator(ref.getTableId()));
  }
}
