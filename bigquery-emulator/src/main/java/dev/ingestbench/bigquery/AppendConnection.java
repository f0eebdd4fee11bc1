package dev.ingestbench.bigquery;

import com.google.cloud.bigquery.storage.v1.AppendRowsRequest;
import com.google.cloud.bigquery.storage.v1.AppendRowsResponse;
import com.google.cloud.bigquery.storage.v1.ProtoRows;
import com.google.cloud.bigquery.storage.v1.ProtoSchema;
import com.google.cloud.bigquery.storage.v1.RowError;
import com.google.protobuf.ByteString;
import com.google.protobuf.Int64Value;
import dev.ingestbench.contracts.DeadLetterSample;
import dev.ingestbench.contracts.EmulatorStatus;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One AppendRows stream: one connection, as BigQuery counts them. Requests arrive in order; each is
 * answered in order, as the client expects. The first request names the stream, the writer schema
 * and the trace id (which names the job); later ones repeat them only when they change
 * (multiplexing).
 */
final class AppendConnection implements StreamObserver<AppendRowsRequest> {
  private final StorageWriteService service;
  private final ServerCallStreamObserver<AppendRowsResponse> responses;
  private @Nullable String job;
  private String streamName = "";
  private @Nullable ProtoSchema schema;
  private @Nullable RowDecoder decoder;

  /**
   * The content check of this schema's rows (null: not checked, e.g. no seed given or another
   * table).
   */
  private @Nullable RowContent content;

  /** Which events belong in this stream's table (null: any event may be in it). */
  private Tables.@Nullable Route route;

  private boolean closed;

  AppendConnection(
      StorageWriteService service, ServerCallStreamObserver<AppendRowsResponse> responses) {
    this.service = service;
    this.responses = responses;
    responses.setOnCancelHandler(this::release);
  }

  @Override
  public void onNext(AppendRowsRequest request) {
    long arrived = System.nanoTime();
    if (job == null) {
      job = jobOf(request.getTraceId());
      service.connections.attribute(job);
    }
    boolean newSchema = request.hasProtoRows() && request.getProtoRows().hasWriterSchema();
    service.activity.arrived(job);
    try {
      if (!request.getWriteStream().isEmpty() && !request.getWriteStream().equals(streamName)) {
        if (!newSchema && schema != null && !sameTable(streamName, request.getWriteStream())) {
          // ProtoData.writer_schema: "Provide this value whenever ... You specify a new destination
          // table."
          throw WriteApiException.invalid(
              request.getWriteStream(),
              "This AppendRows request names another table ("
                  + request.getWriteStream()
                  + ") without a writer_schema: send the writer_schema with the first request"
                  + " to each table");
        }
        streamName = request.getWriteStream();
        decoder = null;
      }
      if (newSchema) {
        schema = request.getProtoRows().getWriterSchema();
        decoder = null;
      }
      respond(append(request));
    } catch (WriteApiException e) {
      service.recordRefused(job, streamName, request, e);
      respond(
          AppendRowsResponse.newBuilder()
              .setError(e.toRpcStatus())
              .setWriteStream(streamName)
              .build());
    } catch (DroppedException e) {
      fail(
          Status.UNAVAILABLE.withDescription(
              "the server dropped this AppendRows stream (injected fault)"));
    } finally {
      service.activity.answered(job);
      long took = System.nanoTime() - arrived;
      service.rpcTimes.record(Faults.Rpc.APPEND_ROWS, took);
      service.connections.appendAnswered(job, took);
    }
  }

  private AppendRowsResponse append(AppendRowsRequest request) {
    if (streamName.isEmpty()) {
      throw WriteApiException.invalid(
          "", "The first AppendRows request must name the write_stream");
    }
    WriteStreamState stream = service.stream(streamName);
    if (!request.hasProtoRows()) {
      throw WriteApiException.invalid(streamName, "Only proto_rows are supported by this server");
    }
    if (schema == null) {
      throw WriteApiException.invalid(
          streamName, "The first AppendRows request must carry the writer_schema");
    }
    int size = request.getSerializedSize();
    if (size > service.settings.maxRequestBytes()) {
      throw WriteApiException.invalid(
          streamName,
          "AppendRows request too large: "
              + size
              + " bytes, the limit is "
              + service.settings.maxRequestBytes());
    }
    if (decoder == null) {
      Tables.Entry table = service.tables.require(stream.table);
      route = service.tables.routeOf(job, stream.table, table);
      RowShape shape = RowShape.of(schema.getProtoDescriptor(), table.protoSchema(), streamName);
      decoder = new RowDecoder(schema, shape, stream.table.isDeadLetterTable());
      Long seed = service.verification.contentSeed();
      content =
          seed == null || stream.table.isDeadLetterTable()
              ? null
              : RowContent.of(seed, schema.getProtoDescriptor());
    }
    Faults.Failure failure = service.faults.failNow(Faults.Rpc.APPEND_ROWS);
    if (failure != null) {
      service.faultsInjected.incrementAndGet();
      throw new WriteApiException(
          failure.code(), null, streamName, failure.message(Faults.Rpc.APPEND_ROWS));
    }
    ProtoRows rows = request.getProtoRows().getRows();
    int count = rows.getSerializedRowsCount();
    ByteString corruptedFirst = null;
    if (content != null && count > 0 && service.faults.corruptNow()) {
      try {
        corruptedFirst =
            content.corrupt(rows.getSerializedRows(0)); // what the store keeps instead of row 0
      } catch (IOException e) {
        corruptedFirst = null; // not protobuf: the row error below says so
      }
    }
    // The table the store keeps these rows in: their own, or the next one (--fault misroute).
    int storedIn = -1;
    if (route != null && route.routing().tables() > 1) {
      storedIn = route.table();
      if (service.faults.misrouteNow()) {
        storedIn = (storedIn + 1) % route.routing().tables();
      }
    }
    String[] mismatches = null;
    // Present (entries null for rows where they belong) whenever the rows' tables are checked:
    // the verification counts the rows it checked from it.
    String[] misroutes = storedIn >= 0 ? new String[count] : null;
    long[] eventIndexes = new long[count];
    long[] publishMicros = new long[count];
    long[] messageIds = new long[count];
    DeadLetterSample[] deadLetters =
        stream.table.isDeadLetterTable() ? new DeadLetterSample[count] : null;
    long[] keys = new long[3];
    long bytes = 0;
    AppendRowsResponse.Builder rowErrors = null;
    for (int i = 0; i < count; i++) {
      ByteString row =
          i == 0 && corruptedFirst != null ? corruptedFirst : rows.getSerializedRows(i);
      bytes += rows.getSerializedRows(i).size();
      try {
        decoder.scan(row, keys);
        if (content != null && keys[0] >= 0) {
          String wrong = content.check(row, keys[0]);
          if (wrong != null) {
            mismatches = mismatches == null ? new String[count] : mismatches;
            mismatches[i] = wrong;
          }
        }
        if (storedIn >= 0 && keys[0] >= 0) {
          int belongs = route.tableOf(keys[0]);
          if (belongs != storedIn) {
            String base = stream.table.table().substring(0, stream.table.table().lastIndexOf('_'));
            misroutes[i] =
                "in " + base + "_" + storedIn + ", its event goes to " + base + "_" + belongs;
          }
        }
        if (deadLetters != null) {
          deadLetters[i] = decoder.deadLetter(row);
        }
      } catch (IOException e) {
        if (rowErrors == null) {
          rowErrors = AppendRowsResponse.newBuilder();
        }
        rowErrors.addRowErrors(
            RowError.newBuilder()
                .setIndex(i)
                .setCode(RowError.RowErrorCode.FIELDS_ERROR)
                .setMessage(
                    "Row "
                        + i
                        + " is not a valid "
                        + schema.getProtoDescriptor().getName()
                        + ": "
                        + e.getMessage()));
        continue;
      }
      eventIndexes[i] = keys[0];
      publishMicros[i] = keys[1];
      messageIds[i] = keys[2];
    }
    if (rowErrors != null) {
      // BigQuery appends none of the request's rows when one is invalid, and names each bad row.
      WriteApiException refused =
          WriteApiException.invalid(streamName, "Errors found while processing rows");
      service.recordRefused(job, streamName, request, refused);
      return rowErrors.setError(refused.toRpcStatus()).setWriteStream(streamName).build();
    }
    long now = System.nanoTime();
    QuotaTiers.Refusal refused = service.quotaTiers.admit(size, now);
    if (refused != null) {
      // The text the service sends (apache/beam#25073 shows it), with this server's numbers.
      throw new WriteApiException(
          Status.Code.RESOURCE_EXHAUSTED,
          null,
          streamName,
          String.format(
              Locale.ROOT,
              "Exceeds 'AppendRows throughput' quota, user_id: %s (status: INSUFFICIENT_TOKENS); the %s"
                  + " quota refills in %.1f s (injected by --quota-mode %s). Entity: %s",
              stream.table.project(),
              refused.tier(),
              refused.secondsToRefill(),
              service.settings.quotaMode(),
              streamName));
    }
    long delay = service.quota.admit(size, now);
    if (delay > 0) {
      sleep(delay);
    }
    long offset = request.hasOffset() ? request.getOffset().getValue() : -1;
    VisibleRows visible =
        new VisibleRows(
            job,
            eventIndexes,
            publishMicros,
            messageIds,
            deadLetters,
            mismatches,
            misroutes,
            count,
            1);
    int copies = service.faults.copiesNow();
    long at =
        stream.append(offset, copies == 1 ? visible : visible.stored(copies), service.verification);
    if (copies != 1 || corruptedFirst != null || (route != null && storedIn != route.table())) {
      service.faultsInjected
          .incrementAndGet(); // a store fault: the verification must find exactly these rows
    }
    if (corruptedFirst != null) {
      service.verification.rowCorrupted();
    }
    service.recordAppended(job, stream, count, bytes);
    if (service.faults.dropNow()) {
      service.faultsInjected.incrementAndGet();
      // The rows are written but the answer is lost with the connection: the writer cannot tell,
      // and retries (at-least-once: duplicates; exactly-once: the offset already exists).
      throw new DroppedException();
    }
    AppendRowsResponse.Builder response =
        AppendRowsResponse.newBuilder().setWriteStream(streamName);
    if (stream.streamType.equals("DEFAULT")) {
      response.getAppendResultBuilder(); // AppendResult.offset "will not be set if appending using
      // default streams"
    } else {
      response.getAppendResultBuilder().setOffset(Int64Value.of(at));
    }
    return response.build();
  }

  /**
   * Whether two stream names are of one table ({@code projects/P/datasets/D/tables/T/streams/S}).
   */
  private static boolean sameTable(String a, String b) {
    int ia = a.indexOf("/streams/");
    int ib = b.indexOf("/streams/");
    return ia > 0 && ib > 0 && a.substring(0, ia).equals(b.substring(0, ib));
  }

  /** Beam's trace id is {@code Dataflow:JOB_NAME:JOB_ID:WORKER_ID}; other clients name no job. */
  static String jobOf(String traceId) {
    int at = traceId.indexOf("Dataflow:");
    if (at < 0) {
      return EmulatorStatus.UNNAMED_JOB;
    }
    String rest = traceId.substring(at + "Dataflow:".length());
    int colon = rest.indexOf(':');
    String job = colon < 0 ? rest : rest.substring(0, colon);
    return job.isBlank() ? EmulatorStatus.UNNAMED_JOB : job;
  }

  private static void sleep(long nanos) {
    try {
      TimeUnit.NANOSECONDS.sleep(nanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private synchronized void respond(AppendRowsResponse response) {
    if (!closed) {
      responses.onNext(response);
    }
  }

  /** Ends the stream with {@code status} (a dropped or drained connection). */
  synchronized void fail(Status status) {
    if (!closed) {
      responses.onError(status.asRuntimeException());
    }
    release();
  }

  @Override
  public void onError(Throwable t) {
    release();
  }

  @Override
  public synchronized void onCompleted() {
    if (!closed) {
      responses.onCompleted();
    }
    release();
  }

  private synchronized void release() {
    if (!closed) {
      closed = true;
      service.closed(this, job);
    }
  }

  /** An injected fault that ends the stream instead of answering. */
  private static final class DroppedException extends RuntimeException {
    DroppedException() {
      super(null, null, false, false);
    }
  }
}
