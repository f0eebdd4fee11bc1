package dev.ingestbench.bigquery;

import com.google.cloud.bigquery.storage.v1.AppendRowsRequest;
import com.google.cloud.bigquery.storage.v1.AppendRowsResponse;
import com.google.cloud.bigquery.storage.v1.BatchCommitWriteStreamsRequest;
import com.google.cloud.bigquery.storage.v1.BatchCommitWriteStreamsResponse;
import com.google.cloud.bigquery.storage.v1.BigQueryWriteGrpc;
import com.google.cloud.bigquery.storage.v1.CreateWriteStreamRequest;
import com.google.cloud.bigquery.storage.v1.FinalizeWriteStreamRequest;
import com.google.cloud.bigquery.storage.v1.FinalizeWriteStreamResponse;
import com.google.cloud.bigquery.storage.v1.FlushRowsRequest;
import com.google.cloud.bigquery.storage.v1.FlushRowsResponse;
import com.google.cloud.bigquery.storage.v1.GetWriteStreamRequest;
import com.google.cloud.bigquery.storage.v1.StorageError;
import com.google.cloud.bigquery.storage.v1.StorageError.StorageErrorCode;
import com.google.cloud.bigquery.storage.v1.WriteStream;
import com.google.cloud.bigquery.storage.v1.WriteStreamView;
import com.google.protobuf.Timestamp;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * {@code google.cloud.bigquery.storage.v1.BigQueryWrite} with BigQuery's semantics: COMMITTED,
 * PENDING and BUFFERED streams and {@code _default}, offsets, visibility, finalize and commit, and
 * the errors the real service sends (status plus {@link StorageError}).
 */
final class StorageWriteService extends BigQueryWriteGrpc.BigQueryWriteImplBase {
  /**
   * What GetWriteStream reports as the location. The client keeps one connection pool per location
   * and JVM, so each server names its own ({@code local-PORT}): a JVM that talks to two servers in
   * turn (tests) never sends one server's rows down the other's pool.
   */
  private volatile String location = "local";

  final EmulatorSettings settings;
  final Tables tables;

  /** tables.get and insert, counted under their quota (served by the REST API). */
  final TablesApiCalls tablesApi;

  final CreateStreamSlowdown createStreamSlowdown;

  /** Each data table's first and last append and rows. */
  final TableAppends tableAppends = new TableAppends();

  final Connections connections;
  final Verification verification = new Verification();
  final WriteTimeline timeline = new WriteTimeline();

  /** The quota that slows appends ({@code --quota-mode throttle}; disabled in the others). */
  final ThroughputQuota quota;

  /** The quotas that refuse appends ({@code reject}, {@code two-tier}; none when throttling). */
  final QuotaTiers quotaTiers;

  final Faults faults;
  private final Map<String, WriteStreamState> streams = new ConcurrentHashMap<>();
  private final Set<AppendConnection> open = ConcurrentHashMap.newKeySet();
  private final AtomicLong appendRequests = new AtomicLong();
  final AtomicLong faultsInjected = new AtomicLong();

  /** How long each kind of call took to answer. */
  final RpcTimes rpcTimes = new RpcTimes();

  final JobActivity activity = new JobActivity();
  private volatile long actionAtAppend = -1;
  private volatile Runnable appendAction = () -> {};

  StorageWriteService(EmulatorSettings settings, Tables tables) {
    this.settings = settings;
    this.tables = tables;
    this.connections = new Connections(settings.maxConnections());
    boolean throttles = EmulatorSettings.THROTTLE.equals(settings.quotaMode());
    this.quota =
        new ThroughputQuota(
            throttles ? settings.quotaMbPerSecond() : 0, settings.quotaWindowSeconds());
    this.quotaTiers = QuotaTiers.of(settings, EpochClock.now());
    this.faults = settings.faults();
    this.tablesApi = new TablesApiCalls(settings.api());
    this.createStreamSlowdown = new CreateStreamSlowdown(settings.api());
  }

  /** Every stream created with CreateWriteStream, oldest first (default streams are not listed). */
  List<WriteStreamState> createdStreams() {
    return streams.values().stream()
        .filter(s -> !s.streamType.equals("DEFAULT"))
        .sorted(
            Comparator.comparingLong((WriteStreamState s) -> s.createdMillis)
                .thenComparing(s -> s.name))
        .toList();
  }

  // ---- unary calls ----

  @Override
  public void createWriteStream(
      CreateWriteStreamRequest request, StreamObserver<WriteStream> response) {
    unary(
        Faults.Rpc.CREATE_WRITE_STREAM,
        request.getParent(),
        response,
        () -> {
          long hold = createStreamSlowdown.delayNanos(System.nanoTime());
          if (hold > 0) {
            sleep(hold);
          }
          TableId table = TableId.parse(request.getParent());
          Tables.Entry entry = tables.require(table);
          WriteStream.Type type = request.getWriteStream().getType();
          if (type == WriteStream.Type.TYPE_UNSPECIFIED || type == WriteStream.Type.UNRECOGNIZED) {
            throw WriteApiException.invalid(
                request.getParent(), "write_stream.type must be COMMITTED, PENDING or BUFFERED");
          }
          String name = table.resource() + "/streams/" + UUID.randomUUID();
          WriteStreamState stream = new WriteStreamState(name, table, type, false);
          streams.put(name, stream);
          return describe(stream, entry, WriteStreamView.FULL, location);
        });
  }

  @Override
  public void getWriteStream(GetWriteStreamRequest request, StreamObserver<WriteStream> response) {
    unary(
        Faults.Rpc.GET_WRITE_STREAM,
        request.getName(),
        response,
        () -> {
          WriteStreamState stream = stream(request.getName());
          return describe(stream, tables.require(stream.table), request.getView(), location);
        });
  }

  @Override
  public void flushRows(FlushRowsRequest request, StreamObserver<FlushRowsResponse> response) {
    unary(
        Faults.Rpc.FLUSH_ROWS,
        request.getWriteStream(),
        response,
        () -> {
          long offset = request.hasOffset() ? request.getOffset().getValue() : 0;
          stream(request.getWriteStream()).flush(offset, verification);
          return FlushRowsResponse.newBuilder().setOffset(offset).build();
        });
  }

  @Override
  public void finalizeWriteStream(
      FinalizeWriteStreamRequest request, StreamObserver<FinalizeWriteStreamResponse> response) {
    unary(
        Faults.Rpc.FINALIZE_WRITE_STREAM,
        request.getName(),
        response,
        () ->
            FinalizeWriteStreamResponse.newBuilder()
                .setRowCount(stream(request.getName()).finalizeStream())
                .build());
  }

  /**
   * Commits PENDING streams atomically: when one of them cannot be committed, none is, and the
   * response lists the errors (BigQuery answers OK with {@code stream_errors}, not a failed call).
   */
  @Override
  public void batchCommitWriteStreams(
      BatchCommitWriteStreamsRequest request,
      StreamObserver<BatchCommitWriteStreamsResponse> response) {
    unary(
        Faults.Rpc.BATCH_COMMIT_WRITE_STREAMS,
        request.getParent(),
        response,
        () -> {
          List<WriteStreamState> toCommit = new ArrayList<>();
          BatchCommitWriteStreamsResponse.Builder result =
              BatchCommitWriteStreamsResponse.newBuilder();
          for (String name : request.getWriteStreamsList()) {
            try {
              WriteStreamState stream = stream(name);
              stream.checkCommittable();
              toCommit.add(stream);
            } catch (WriteApiException e) {
              result.addStreamErrors(
                  StorageError.newBuilder()
                      .setCode(
                          e.storageCode == null
                              ? StorageErrorCode.INVALID_STREAM_STATE
                              : e.storageCode)
                      .setEntity(name)
                      .setErrorMessage(e.getMessage()));
            }
          }
          if (result.getStreamErrorsCount() > 0) {
            return result.build();
          }
          long now = System.currentTimeMillis();
          toCommit.forEach(s -> s.commit(verification, now));
          return result.setCommitTime(timestamp(now)).build();
        });
  }

  /** Answers a unary call, or fails it when {@code --fault} says this call of {@code rpc} fails. */
  private <T> void unary(
      Faults.Rpc rpc, String entity, StreamObserver<T> response, Supplier<T> call) {
    long arrived = System.nanoTime();
    try {
      answer(rpc, entity, response, call);
    } finally {
      rpcTimes.record(rpc, System.nanoTime() - arrived);
    }
  }

  private <T> void answer(
      Faults.Rpc rpc, String entity, StreamObserver<T> response, Supplier<T> call) {
    Faults.Failure failure = faults.failNow(rpc);
    if (failure != null) {
      faultsInjected.incrementAndGet();
      response.onError(
          new WriteApiException(failure.code(), null, entity, failure.message(rpc))
              .toStatusException());
      return;
    }
    T result;
    try {
      result = call.get();
    } catch (WriteApiException e) {
      response.onError(e.toStatusException());
      return;
    }
    response.onNext(result);
    response.onCompleted();
  }

  // ---- AppendRows: one bidirectional stream per connection ----

  @Override
  public StreamObserver<AppendRowsRequest> appendRows(
      StreamObserver<AppendRowsResponse> responses) {
    ServerCallStreamObserver<AppendRowsResponse> call =
        (ServerCallStreamObserver<AppendRowsResponse>) responses;
    if (!connections.tryOpen()) {
      responses.onError(
          Status.RESOURCE_EXHAUSTED
              .withDescription(
                  "Exceeds 'concurrent connections' limit of "
                      + settings.maxConnections()
                      + ": close idle connections, or use the multiplexing connection pool")
              .asRuntimeException());
      return new NoOpObserver();
    }
    AppendConnection connection = new AppendConnection(this, call);
    open.add(connection);
    return connection;
  }

  void closed(AppendConnection connection, String job) {
    if (open.remove(connection)) {
      connections.close(job);
    }
  }

  /** Ends every open connection at once, as a draining server does. */
  int drainAll() {
    List<AppendConnection> all = new ArrayList<>(open);
    faultsInjected.addAndGet(all.size());
    faults.drained();
    all.forEach(
        c ->
            c.fail(
                Status.UNAVAILABLE.withDescription(
                    "Connection is draining: the server is restarting")));
    return all.size();
  }

  /** The stream named {@code name}; {@code _default} exists for every table. */
  WriteStreamState stream(String name) {
    WriteStreamState stream = streams.get(name);
    if (stream != null) {
      return stream;
    }
    if (name.endsWith("/streams/_default")) {
      TableId table = TableId.parse(name);
      tables.require(table);
      return streams.computeIfAbsent(
          name, n -> new WriteStreamState(n, table, WriteStream.Type.COMMITTED, true));
    }
    throw new WriteApiException(
        Status.Code.NOT_FOUND,
        StorageErrorCode.STREAM_NOT_FOUND,
        name,
        "Stream is not found: " + name);
  }

  void recordAppended(String job, WriteStreamState stream, int rows, long bytes) {
    noteAppend();
    TableId t = stream.table;
    long now = System.currentTimeMillis();
    tableAppends.record(job, t.table(), rows, now);
    timeline.record(
        job, now, t.project(), t.dataset(), t.table(), stream.streamType, "OK", rows, bytes);
  }

  void recordRefused(
      String job, String streamName, AppendRowsRequest request, WriteApiException error) {
    noteAppend();
    WriteStreamState stream = streams.get(streamName);
    if (stream == null) {
      return;
    }
    TableId t = stream.table;
    timeline.record(
        job,
        System.currentTimeMillis(),
        t.project(),
        t.dataset(),
        t.table(),
        stream.streamType,
        error.errorCode(),
        request.getProtoRows().getRows().getSerializedRowsCount(),
        request.getSerializedSize());
  }

  private void noteAppend() {
    if (appendRequests.incrementAndGet() == actionAtAppend) {
      appendAction.run();
    }
  }

  /**
   * Runs {@code action} once, when the {@code n}-th append request (1 = the first, any stream or
   * connection) has been handled: where the drain faults start.
   */
  void onAppend(long n, Runnable action) {
    this.appendAction = action;
    this.actionAtAppend = n;
  }

  long appendRequests() {
    return appendRequests.get();
  }

  void setLocation(String location) {
    this.location = location;
  }

  private static WriteStream describe(
      WriteStreamState stream, Tables.Entry table, WriteStreamView view, String location) {
    WriteStream.Builder out =
        WriteStream.newBuilder()
            .setName(stream.name)
            .setType(stream.type)
            .setCreateTime(timestamp(stream.createdMillis))
            .setLocation(location)
            .setWriteMode(WriteStream.WriteMode.INSERT);
    long committed = stream.commitTimeMillis();
    if (committed >= 0) {
      out.setCommitTime(timestamp(committed));
    }
    if (view == WriteStreamView.FULL) {
      out.setTableSchema(table.protoSchema());
    }
    return out.build();
  }

  private static Timestamp timestamp(long millis) {
    return Timestamp.newBuilder()
        .setSeconds(millis / 1000)
        .setNanos((int) (millis % 1000) * 1_000_000)
        .build();
  }

  /** The observer of a refused connection: it was answered with an error already. */
  private static final class NoOpObserver implements StreamObserver<AppendRowsRequest> {
    @Override
    public void onNext(AppendRowsRequest value) {}

    @Override
    public void onError(Throwable t) {}

    @Override
    public void onCompleted() {}
  }

  /** Holds a call (the CreateWriteStream slowdown); an interrupt ends the hold early. */
  private static void sleep(long nanos) {
    try {
      java.util.concurrent.TimeUnit.NANOSECONDS.sleep(nanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
