package dev.ingestbench.bigquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.api.core.ApiFuture;
import com.google.api.gax.rpc.NotFoundException;
import com.google.cloud.bigquery.storage.v1.AppendRowsResponse;
import com.google.cloud.bigquery.storage.v1.BatchCommitWriteStreamsRequest;
import com.google.cloud.bigquery.storage.v1.BatchCommitWriteStreamsResponse;
import com.google.cloud.bigquery.storage.v1.ConnectionWorkerPool;
import com.google.cloud.bigquery.storage.v1.CreateWriteStreamRequest;
import com.google.cloud.bigquery.storage.v1.Exceptions;
import com.google.cloud.bigquery.storage.v1.FlushRowsRequest;
import com.google.cloud.bigquery.storage.v1.ProtoRows;
import com.google.cloud.bigquery.storage.v1.StreamWriter;
import com.google.cloud.bigquery.storage.v1.WriteStream;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Int64Value;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.RunFiles;
import io.grpc.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server through the official Java client on a plaintext channel: stream types, offsets,
 * visibility, the errors a client expects, limits and connection counting.
 */
class StorageWriteServerTest {

  private static BigQueryEmulator start(EmulatorSettings settings) throws Exception {
    return BigQueryEmulator.start(settings);
  }

  private static Throwable failure(ApiFuture<?> future) {
    ExecutionException e = assertThrows(ExecutionException.class, future::get);
    return e.getCause();
  }

  @Test
  void aRowsMessageIdTellsTheSinksDuplicatesFromTheSources() throws Exception {
    try (BigQueryEmulator server = start(EmulatorSettings.defaults());
        OfficialClient bq = new OfficialClient(server)) {
      String table = bq.createTable("rides", "message_id");
      try (StreamWriter w =
          bq.writer(table + "/streams/_default", "job-a")
              .setWriterSchema(OfficialClient.schema("message_id"))
              .build()) {
        w.append(rowsWithIds(0, 100, "m")).get();
        w.append(rowsWithIds(90, 10, "m")).get(); // the same messages again: the sink's
        w.append(rowsWithIds(50, 5, "resent-")).get(); // the same events, other ids: the source's
      }
      EmulatorStatus.Job job = server.status().job("job-a");
      assertEquals(115, job.rowsWritten());
      assertEquals(100, job.distinctMessageIds());
      assertEquals(10, job.duplicates());
      assertEquals(5, job.sourceDuplicates());
    }
  }

  /**
   * A job whose appends are all refused has no row and is still writing: its requests count as they
   * arrive, so a run waiting for it to fall quiet does not call its messages lost.
   */
  @Test
  void refusedAppendsCountAsTheJobsActivity() throws Exception {
    try (BigQueryEmulator server =
            start(EmulatorSettings.defaults().withFaults(List.of("unavailable=1")));
        OfficialClient bq = new OfficialClient(server)) {
      String table = bq.createTable("rides");
      try (StreamWriter w = bq.writer(table + "/streams/_default", "job-a").build()) {
        failure(w.append(OfficialClient.rows(0, 10, 100)));
      }
      EmulatorStatus.Job job = server.status().job("job-a");
      assertEquals(0, job.rowsWritten());
      assertTrue(job.appendRequests() >= 1, "the refused append counted: " + job);
      assertEquals(0, job.appendsInFlight(), "answered");
    }
  }

  /** Rows {@code from..from+count-1} whose message id is {@code prefix} and the index. */
  private static ProtoRows rowsWithIds(long from, int count, String prefix) throws IOException {
    ProtoRows.Builder rows = ProtoRows.newBuilder();
    for (long i = from; i < from + count; i++) {
      ByteString.Output out = ByteString.newOutput();
      CodedOutputStream coded = CodedOutputStream.newInstance(out);
      coded.writeInt64(1, i);
      coded.writeInt64(2, System.currentTimeMillis() * 1000);
      coded.writeString(3, "payload");
      coded.writeString(4, prefix + i);
      coded.flush();
      rows.addSerializedRows(out.toByteString());
    }
    return rows.build();
  }

  @Test
  void defaultStreamRowsAreVisibleAtOnceAndVerifiedPerJob(@TempDir Path out) throws Exception {
    try (BigQueryEmulator server = start(EmulatorSettings.defaults());
        OfficialClient bq = new OfficialClient(server)) {
      String table = bq.createTable("rides");
      try (StreamWriter a = bq.writer(table + "/streams/_default", "job-a").build();
          StreamWriter b = bq.writer(table + "/streams/_default", "job-b").build()) {
        a.append(OfficialClient.rows(0, 500, 400)).get();
        a.append(OfficialClient.rows(500, 500, 400)).get();
        a.append(OfficialClient.rows(900, 10, 400)).get(); // ten duplicates
        b.append(OfficialClient.rows(0, 1000, 400)).get();
        assertEquals(2, server.status().openConnections());
      }
      EmulatorStatus status = server.status();
      EmulatorStatus.Job jobA = status.job("job-a");
      assertEquals(1010, jobA.rowsWritten());
      assertEquals(1000, jobA.distinctMessageIds());
      assertEquals(10, jobA.duplicates());
      assertEquals(1000, status.job("job-b").distinctMessageIds());
      assertEquals(
          0,
          status.job("job-b").duplicates(),
          "one job's rows never count as another's duplicates");
      assertEquals(1, jobA.peakConnections());
      assertTrue(jobA.latency().samples() == 1010);
      server.writeFiles(out);
      String timeline = Files.readString(out.resolve(RunFiles.TIMELINE));
      // Summed over minutes: the appends may straddle a minute boundary.
      long requests = 0;
      long rows = 0;
      for (String line : timeline.lines().skip(1).toList()) {
        String[] f = line.split(",");
        assertEquals(
            "my-project,,demo,rides,DEFAULT,OK", String.join(",", List.of(f).subList(1, 7)), line);
        requests += Long.parseLong(f[7]);
        rows += Long.parseLong(f[8]);
      }
      assertEquals(4, requests, timeline);
      assertEquals(2010, rows, timeline);
      String connections = Files.readString(out.resolve(RunFiles.CONNECTIONS));
      assertTrue(connections.contains(",job-a,1,1,0,"), connections);
      assertTrue(
          connections.startsWith("epoch_second,job,max_open,opened,refused,append_server_us\n"),
          connections);
      // The time answering appends, per second, adds up to what the status's AppendRows took.
      long micros =
          connections
              .lines()
              .filter(l -> l.contains(",*,"))
              .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(',') + 1)))
              .sum();
      double appendSeconds =
          server.status().rpcTimes().stream()
              .filter(t -> t.rpc().equals("AppendRows"))
              .findFirst()
              .orElseThrow()
              .serverSeconds();
      assertTrue(micros > 0, connections);
      assertEquals(appendSeconds, micros / 1e6, 0.001, connections);
    }
  }

  @Test
  void bufferedStreamsKeepOffsetsAndShowRowsWhenFlushed() throws Exception {
    try (BigQueryEmulator server = start(EmulatorSettings.defaults());
        OfficialClient bq = new OfficialClient(server)) {
      String table = bq.createTable("buffered");
      WriteStream stream =
          bq.client.createWriteStream(
              CreateWriteStreamRequest.newBuilder()
                  .setParent(table)
                  .setWriteStream(WriteStream.newBuilder().setType(WriteStream.Type.BUFFERED))
                  .build());
      assertEquals(3, stream.getTableSchema().getFieldsCount());
      try (StreamWriter writer = bq.writer(stream.getName(), "eo").build()) {
        AppendRowsResponse first = writer.append(OfficialClient.rows(0, 100, 50), 0).get();
        assertEquals(0, first.getAppendResult().getOffset().getValue());
        writer.append(OfficialClient.rows(100, 100, 50), 100).get();
        assertInstanceOf(
            Exceptions.OffsetAlreadyExists.class,
            failure(writer.append(OfficialClient.rows(100, 100, 50), 100)));
        assertInstanceOf(
            Exceptions.OffsetOutOfRange.class,
            failure(writer.append(OfficialClient.rows(300, 1, 50), 300)));
        assertEquals(
            0,
            server.status().job("eo").rowsWritten(),
            "BUFFERED rows are invisible until flushed");
        bq.client.flushRows(
            FlushRowsRequest.newBuilder()
                .setWriteStream(stream.getName())
                .setOffset(Int64Value.of(149))
                .build());
        assertEquals(150, server.status().job("eo").rowsWritten());
        EmulatorStatus status = server.status();
        assertEquals(
            50, status.invisibleRows(), "appended past the flush: rows a writer never finished");
        EmulatorStatus.Stream listed = status.streams().get(0);
        assertEquals(
            List.of(200L, 150L, false),
            List.of(listed.appendedRows(), listed.visibleRows(), listed.finalized()));
        assertTrue(stream.getName().endsWith("/" + listed.name()), listed.name());
        assertEquals("BUFFERED", listed.type());
      }
    }
  }

  @Test
  void pendingStreamsCommitAtomicallyAfterFinalizeAndRefuseLaterAppends() throws Exception {
    try (BigQueryEmulator server = start(EmulatorSettings.defaults());
        OfficialClient bq = new OfficialClient(server)) {
      String table = bq.createTable("pending");
      WriteStream stream =
          bq.client.createWriteStream(
              CreateWriteStreamRequest.newBuilder()
                  .setParent(table)
                  .setWriteStream(WriteStream.newBuilder().setType(WriteStream.Type.PENDING))
                  .build());
      try (StreamWriter writer = bq.writer(stream.getName(), "pending").build()) {
        writer.append(OfficialClient.rows(0, 10, 50), 0).get();
        BatchCommitWriteStreamsResponse early =
            bq.client.batchCommitWriteStreams(
                BatchCommitWriteStreamsRequest.newBuilder()
                    .setParent(table)
                    .addWriteStreams(stream.getName())
                    .build());
        assertEquals(1, early.getStreamErrorsCount(), "a stream must be finalized before commit");
        assertEquals(10, bq.client.finalizeWriteStream(stream.getName()).getRowCount());
        assertInstanceOf(
            Exceptions.StreamFinalizedException.class,
            failure(writer.append(OfficialClient.rows(10, 1, 50), 10)));
        assertEquals(0, server.status().job("pending").rowsWritten());
        BatchCommitWriteStreamsResponse commit =
            bq.client.batchCommitWriteStreams(
                BatchCommitWriteStreamsRequest.newBuilder()
                    .setParent(table)
                    .addWriteStreams(stream.getName())
                    .build());
        assertTrue(commit.hasCommitTime());
        assertEquals(10, server.status().job("pending").rowsWritten());
        // Every call is timed, refused ones too, as the sink's side of the client's round trips.
        java.util.Map<String, Long> calls = new java.util.LinkedHashMap<>();
        for (EmulatorStatus.RpcTime t : server.status().rpcTimes()) {
          calls.put(t.rpc(), t.calls());
          assertTrue(t.p50Ms() <= t.p99Ms() && t.p99Ms() <= t.maxMs(), t.toString());
          assertTrue(t.serverSeconds() >= 0, t.toString());
        }
        assertEquals(
            java.util.Map.of(
                "AppendRows", 2L,
                "CreateWriteStream", 1L,
                "FinalizeWriteStream", 1L,
                "BatchCommitWriteStreams", 2L),
            calls);
      }
    }
  }

  /**
   * Faults on every RPC, not only AppendRows: with every second call failing (UNAVAILABLE, the
   * overloaded text, INTERNAL), the official client's own retries carry each RPC through, and the
   * server counts each injected failure.
   */
  @Test
  void everyRpcCanBeMadeToFailAndTheClientRetriesIt() throws Exception {
    EmulatorSettings faulty =
        EmulatorSettings.defaults()
            .withFaults(
                List.of(
                    "create-write-stream:overloaded=0.5",
                    "get-write-stream:unavailable=0.5",
                    "flush-rows:unavailable=0.5",
                    "finalize-write-stream:unavailable=0.5",
                    "batch-commit-write-streams:unavailable=0.5"));
    try (BigQueryEmulator server = start(faulty);
        OfficialClient bq = new OfficialClient(server)) {
      String table = bq.createTable("flaky");
      WriteStream buffered =
          bq.client.createWriteStream(
              CreateWriteStreamRequest.newBuilder()
                  .setParent(table)
                  .setWriteStream(WriteStream.newBuilder().setType(WriteStream.Type.BUFFERED))
                  .build());
      WriteStream pending =
          bq.client.createWriteStream(
              CreateWriteStreamRequest.newBuilder()
                  .setParent(table)
                  .setWriteStream(WriteStream.newBuilder().setType(WriteStream.Type.PENDING))
                  .build());
      assertEquals(
          1,
          server.status().faultsInjected(),
          "the second CreateWriteStream failed once and was retried");
      // Every second call fails: each RPC is called twice, and the second call is retried by the
      // client.
      for (int i = 0; i < 2; i++) {
        assertEquals(
            WriteStream.Type.BUFFERED, bq.client.getWriteStream(buffered.getName()).getType());
      }
      try (StreamWriter writer = bq.writer(buffered.getName(), "flaky").build()) {
        writer.append(OfficialClient.rows(0, 10, 10), 0).get();
      }
      try (StreamWriter writer = bq.writer(pending.getName(), "flaky").build()) {
        writer.append(OfficialClient.rows(10, 10, 10), 0).get();
      }
      for (long offset : new long[] {4, 9}) {
        assertEquals(
            offset,
            bq.client
                .flushRows(
                    FlushRowsRequest.newBuilder()
                        .setWriteStream(buffered.getName())
                        .setOffset(Int64Value.of(offset))
                        .build())
                .getOffset());
      }
      for (int i = 0; i < 2; i++) {
        assertEquals(10, bq.client.finalizeWriteStream(pending.getName()).getRowCount());
      }
      BatchCommitWriteStreamsRequest commit =
          BatchCommitWriteStreamsRequest.newBuilder()
              .setParent(table)
              .addWriteStreams(pending.getName())
              .build();
      assertTrue(bq.client.batchCommitWriteStreams(commit).hasCommitTime());
      assertEquals(
          "STREAM_ALREADY_COMMITTED",
          bq.client.batchCommitWriteStreams(commit).getStreamErrors(0).getCode().name(),
          "retried, then answered");
      assertEquals(
          5,
          server.status().faultsInjected(),
          "one failure per RPC: create, get, flush, finalize, commit");
      assertEquals(20, server.status().job("flaky").rowsWritten(), "every row visible once");
    }
  }

  /**
   * A store that misbehaves on purpose, to test the verification: every second append acknowledged
   * and never stored, or stored twice, on the default stream and on a PENDING stream (whose rows
   * the store keeps until the commit). The verification finds exactly the injected rows.
   */
  @Test
  void aStoreThatDiscardsOrDuplicatesIsCaughtRowForRow() throws Exception {
    for (String fault : List.of("discard=0.5", "duplicate=0.5")) {
      try (BigQueryEmulator server = start(EmulatorSettings.defaults().withFaults(List.of(fault)));
          OfficialClient bq = new OfficialClient(server)) {
        String table = bq.createTable("store");
        try (StreamWriter writer = bq.writer(table + "/streams/_default", "store").build()) {
          for (int batch = 0; batch < 4; batch++) {
            writer
                .append(OfficialClient.rows(batch * 10, 10, 10))
                .get(); // every append answered OK
          }
        }
        WriteStream pending =
            bq.client.createWriteStream(
                CreateWriteStreamRequest.newBuilder()
                    .setParent(table)
                    .setWriteStream(WriteStream.newBuilder().setType(WriteStream.Type.PENDING))
                    .build());
        try (StreamWriter writer = bq.writer(pending.getName(), "store").build()) {
          for (int batch = 0; batch < 2; batch++) {
            writer.append(OfficialClient.rows(40 + batch * 10, 10, 10), batch * 10L).get();
          }
        }
        assertEquals(
            20,
            bq.client.finalizeWriteStream(pending.getName()).getRowCount(),
            "offsets count every row");
        bq.client.batchCommitWriteStreams(
            BatchCommitWriteStreamsRequest.newBuilder()
                .setParent(table)
                .addWriteStreams(pending.getName())
                .build());
        EmulatorStatus status = server.status();
        EmulatorStatus.Job job = status.job("store");
        if (fault.startsWith("discard")) {
          assertEquals(30, status.rowsDiscarded(), "appends 2, 4 and 6 of 6");
          assertEquals(30, job.distinctMessageIds(), "60 acknowledged, 30 stored: 30 lost");
          assertEquals(0, job.duplicates());
        } else {
          assertEquals(30, status.rowsDuplicated());
          assertEquals(60, job.distinctMessageIds());
          assertEquals(
              30, job.duplicates(), "each row stored twice is counted once as a duplicate");
        }
      }
    }
  }

  @Test
  void badRequestsGetTheErrorsARealClientExpects() throws Exception {
    EmulatorSettings small = EmulatorSettings.defaults().withLimits(0, 1, 1_000, 20_000);
    try (BigQueryEmulator server = start(small);
        OfficialClient bq = new OfficialClient(server)) {
      String table = bq.createTable("strict");
      NotFoundException missing =
          assertThrows(
              NotFoundException.class,
              () ->
                  bq.client.createWriteStream(
                      CreateWriteStreamRequest.newBuilder()
                          .setParent(table.replace("strict", "absent"))
                          .setWriteStream(
                              WriteStream.newBuilder().setType(WriteStream.Type.PENDING))
                          .build()));
      assertTrue(missing.getMessage().contains("absent"), missing.getMessage());
      try (StreamWriter unknown = bq.writer(table + "/streams/no-such-stream", "bad").build()) {
        assertInstanceOf(
            Exceptions.StreamNotFound.class,
            failure(unknown.append(OfficialClient.rows(0, 1, 10))));
      }
      try (StreamWriter wrongSchema =
          bq.writer(table + "/streams/_default", "bad")
              .setWriterSchema(OfficialClient.schema("no_such_column"))
              .build()) {
        assertInstanceOf(
            Exceptions.SchemaMismatchedException.class,
            failure(wrongSchema.append(OfficialClient.rows(0, 1, 10))));
      }
      try (StreamWriter writer = bq.writer(table + "/streams/_default", "bad").build()) {
        Throwable tooBig = failure(writer.append(OfficialClient.rows(0, 100, 400)));
        assertEquals(Status.Code.INVALID_ARGUMENT, Status.fromThrowable(tooBig).getCode());
        assertTrue(tooBig.getMessage().contains("too large"), tooBig.getMessage());
        Throwable garbage =
            failure(
                writer.append(
                    ProtoRows.newBuilder()
                        .addSerializedRows(ByteString.copyFromUtf8("\u0008"))
                        .build()));
        assertInstanceOf(Exceptions.AppendSerializationError.class, garbage);
        assertEquals(
            1, ((Exceptions.AppendSerializationError) garbage).getRowIndexToErrorMessage().size());
        writer.append(OfficialClient.rows(0, 10, 10)).get(); // the connection still works
      }
      assertEquals(10, server.status().job("bad").rowsWritten());
    }
  }

  @Test
  void connectionsBeyondTheLimitAreRefusedWithResourceExhausted() throws Exception {
    EmulatorSettings two =
        EmulatorSettings.defaults().withLimits(0, 1, 2, EmulatorSettings.DEFAULT_MAX_REQUEST_BYTES);
    try (BigQueryEmulator server = start(two);
        OfficialClient bq = new OfficialClient(server)) {
      List<StreamWriter> writers = new ArrayList<>();
      try {
        for (int t = 0; t < 3; t++) {
          String table = bq.createTable("t" + t);
          StreamWriter writer =
              bq.writer(table + "/streams/_default", "many")
                  .setMaxRetryDuration(Duration.ofSeconds(1))
                  .build();
          writers.add(writer);
          ApiFuture<AppendRowsResponse> append =
              writer.append(OfficialClient.rows(t * 10L, 10, 10));
          if (t < 2) {
            append.get();
          } else {
            assertEquals(
                Status.Code.RESOURCE_EXHAUSTED, Status.fromThrowable(failure(append)).getCode());
          }
        }
      } finally {
        writers.forEach(StreamWriter::close);
      }
      EmulatorStatus status = server.status();
      assertEquals(2, status.peakConnections());
      assertTrue(status.connectionsRefused() >= 1);
    }
  }

  @Test
  void thePoolMultiplexesManyTablesOverAFewConnections() throws Exception {
    ConnectionWorkerPool.setOptions(
        ConnectionWorkerPool.Settings.builder()
            .setMinConnectionsPerRegion(2)
            .setMaxConnectionsPerRegion(4)
            .build());
    try (BigQueryEmulator server = start(EmulatorSettings.defaults());
        OfficialClient bq = new OfficialClient(server)) {
      List<StreamWriter> pooled = new ArrayList<>();
      List<StreamWriter> single = new ArrayList<>();
      try {
        for (int t = 0; t < 8; t++) {
          String table = bq.createTable("p" + t);
          pooled.add(
              bq.writer(table + "/streams/_default", "pooled")
                  .setEnableConnectionPool(true)
                  .build());
          single.add(bq.writer(table + "/streams/_default", "single").build());
        }
        for (int t = 0; t < 8; t++) {
          pooled.get(t).append(OfficialClient.rows(t * 100L, 100, 10)).get();
          single.get(t).append(OfficialClient.rows(t * 100L, 100, 10)).get();
        }
        EmulatorStatus status = server.status();
        assertEquals(800, status.job("pooled").distinctMessageIds());
        assertEquals(800, status.job("single").distinctMessageIds());
        assertEquals(
            8, status.job("single").peakConnections(), "one connection per table without the pool");
        int poolConnections = status.job("pooled").peakConnections();
        assertTrue(
            poolConnections >= 1 && poolConnections <= 4, "pooled connections: " + poolConnections);
      } finally {
        pooled.forEach(StreamWriter::close);
        single.forEach(StreamWriter::close);
      }
    }
  }

  @Test
  void theQuotaSlowsAppendsInsteadOfFailingThem() throws Exception {
    // 0.1 MB/s for 2 s windows: a 200 KB budget, then 10 KB/s.
    EmulatorSettings tiny =
        EmulatorSettings.defaults()
            .withLimits(0.1, 2, 1_000, EmulatorSettings.DEFAULT_MAX_REQUEST_BYTES);
    try (BigQueryEmulator server = start(tiny);
        OfficialClient bq = new OfficialClient(server)) {
      String table = bq.createTable("quota");
      try (StreamWriter writer = bq.writer(table + "/streams/_default", "q").build()) {
        long started = System.nanoTime();
        for (int i = 0; i < 25; i++) {
          writer.append(OfficialClient.rows(i * 10L, 10, 1_000)).get();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        assertTrue(seconds >= 0.4, "250 KB through a 200 KB budget must wait: " + seconds + " s");
      }
      EmulatorStatus status = server.status();
      assertEquals(250, status.job("q").distinctMessageIds(), "throttled, never refused");
      assertTrue(status.throttledAppends() > 0);
    }
  }

  /**
   * Two-tier: the official client gets RESOURCE_EXHAUSTED naming the tier that refused, and the
   * status (over REST, as a round reads it) says which tier refused what.
   */
  @Test
  void twoTierRefusalsNameTheirTierOverTheWire() throws Exception {
    // Region: 0.05 MB/s per 20 s (1 MB); cell: 0.02 MB/s per 10 s (200 KB) below it.
    EmulatorSettings tiers =
        EmulatorSettings.defaults()
            .withQuotaMode(EmulatorSettings.TWO_TIER)
            .withLimits(0.05, 20, 1_000, EmulatorSettings.DEFAULT_MAX_REQUEST_BYTES)
            .withCellQuota(new EmulatorSettings.CellQuota(0.02, 10))
            .validate();
    try (BigQueryEmulator server = start(tiers);
        OfficialClient bq = new OfficialClient(server)) {
      String table = bq.createTable("tiers");
      try (StreamWriter writer =
          bq.writer(table + "/streams/_default", "t")
              .setMaxRetryDuration(Duration.ofSeconds(1))
              .build()) {
        Throwable refused = null;
        for (int i = 0; i < 30 && refused == null; i++) {
          try {
            writer.append(OfficialClient.rows(i * 10L, 10, 1_000)).get();
          } catch (java.util.concurrent.ExecutionException e) {
            refused = e.getCause();
          }
        }
        assertNotNull(refused, "300 KB through a 200 KB cell budget");
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, Status.fromThrowable(refused).getCode());
        assertTrue(
            refused.getMessage().contains("the cell quota refills in"), refused.getMessage());
      }
      EmulatorStatus status =
          dev.ingestbench.contracts.RunJson.fromJson(
              java.net.http.HttpClient.newHttpClient()
                  .send(
                      java.net.http.HttpRequest.newBuilder(
                              java.net.URI.create(server.restUrl() + EmulatorStatus.PATH))
                          .build(),
                      java.net.http.HttpResponse.BodyHandlers.ofString())
                  .body(),
              EmulatorStatus.class);
      List<EmulatorStatus.QuotaTier> t = status.quotaTiers();
      assertEquals(List.of("regional", "cell"), t.stream().map(x -> x.tier()).toList());
      assertEquals(0, t.get(0).refusedAppends(), "the region's 1 MB was never spent");
      assertTrue(t.get(1).refusedAppends() >= 1, t.toString());
      assertEquals(status.rejectedAppends(), t.get(1).refusedAppends());
      assertTrue(t.get(1).refusals().size() >= 1, t.toString()); // a slow machine: a second window
      EmulatorStatus.QuotaRefusal r = t.get(1).refusals().get(0);
      assertTrue(
          r.firstRefusedMs() <= r.lastRefusedMs() && r.lastRefusedMs() < r.refilledMs(),
          r.toString());
      assertEquals(0, status.throttledAppends(), "nothing slowed: refused instead");
    }
  }
}
