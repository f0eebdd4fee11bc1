package dev.ingestbench.bigquery;

import com.sun.net.httpserver.HttpServer;
import dev.ingestbench.contracts.AccountedIndexes;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.JobRouting;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.SendSchedule;
import dev.ingestbench.contracts.WindowLatency;
import io.grpc.Server;
import io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local BigQuery: the Storage Write API over plaintext gRPC and the tables REST API, on
 * loopback ports, verifying every row it is sent. One instance serves every job of a round; tests
 * and the in-process sink start it in their own JVM.
 */
public final class BigQueryEmulator implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BigQueryEmulator.class);

  static {
    // The JDK's HTTP server leaves Nagle's algorithm on: every small table answer then waited for
    // the client's delayed ACK (~40 ms), so making 1,000 tables took 48 s instead of the quota's
    // 10. Read once, when the server's configuration class loads: set before the first server.
    if (System.getProperty("sun.net.httpserver.nodelay") == null) {
      System.setProperty("sun.net.httpserver.nodelay", "true");
    }
  }

  /** Requests can be up to 10 MB plus framing; gRPC's default inbound limit is 4 MiB. */
  private static final int MAX_INBOUND_MESSAGE_BYTES = 64 * 1024 * 1024;

  private final EmulatorSettings settings;
  private final StorageWriteService service;
  private final Server grpc;
  private final HttpServer rest;
  private final ExecutorService restExecutor =
      Executors.newFixedThreadPool(4, daemon("bigquery-emulator-rest"));
  private final ScheduledExecutorService ticker =
      Executors.newSingleThreadScheduledExecutor(daemon("bigquery-emulator-tick"));
  private final Instant startedAt = Instant.now();

  /** The round it serves, written into its status; null when started without one. */
  private volatile String runId;

  private BigQueryEmulator(EmulatorSettings settings) throws IOException {
    this.settings = settings.validate();
    Tables tables = new Tables();
    this.service = new StorageWriteService(settings, tables);
    try {
      this.grpc =
          NettyServerBuilder.forAddress(new InetSocketAddress(settings.host(), settings.port()))
              .addService(service)
              .maxInboundMessageSize(MAX_INBOUND_MESSAGE_BYTES)
              // The official client pings every minute on an idle connection; gRPC's server
              // default (5 minutes) answers that with GOAWAY "too_many_pings", and with hundreds of
              // connections open (many tables) every one of them was dropped and re-made.
              .permitKeepAliveTime(30, TimeUnit.SECONDS)
              .permitKeepAliveWithoutCalls(true)
              .build()
              .start();
    } catch (IOException e) {
      throw portInUse("--port", settings.port(), e);
    }
    service.setLocation("local-" + grpc.getPort());
    try {
      this.rest =
          HttpServer.create(new InetSocketAddress(settings.host(), settings.restPort()), 64);
    } catch (IOException e) {
      grpc.shutdownNow();
      throw portInUse("--rest-port", settings.restPort(), e);
    }
    rest.createContext(
        "/",
        new RestApi(
            tables,
            service.tablesApi,
            this::status,
            this::accounted,
            new RestApi.Latencies() {
              @Override
              public void scheduled(SendSchedule step) {
                service.verification.intendedTimes.add(step);
              }

              @Override
              public List<SendSchedule> schedule() {
                return service.verification.intendedTimes.steps();
              }

              @Override
              public WindowLatency window(String job, long fromMs, long toMs) {
                return windowLatency(job, fromMs, toMs);
              }
            }));
    rest.setExecutor(restExecutor);
    rest.start();
    ticker.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
    double drainAt = settings.faults().drainAtSeconds();
    long drainAfter = settings.faults().drainAfterAppends();
    if (drainAfter > 0) {
      // On the ticker, not in the request's thread: the N-th append is answered before the drain.
      service.onAppend(drainAfter, () -> ticker.execute(this::drain));
    } else if (drainAt >= 0) {
      service.onAppend(
          1, () -> ticker.schedule(this::drain, (long) (drainAt * 1e9), TimeUnit.NANOSECONDS));
    }
  }

  /** Starts a server with {@code settings}; ports 0 pick free ones. */
  public static BigQueryEmulator start(EmulatorSettings settings) throws IOException {
    return new BigQueryEmulator(settings);
  }

  /** {@code host:port} of the Storage Write API (gRPC, plaintext). */
  public String grpcAddress() {
    return settings.host() + ":" + grpc.getPort();
  }

  /** Root URL of the REST API, what Beam's {@code --bigQueryEndpoint} takes. */
  public String restUrl() {
    return "http://" + settings.host() + ":" + rest.getAddress().getPort();
  }

  public EmulatorSettings settings() {
    return settings;
  }

  /** Once a second: connection counts for the chart. */
  private void tick() {
    try {
      service.connections.tick();
    } catch (RuntimeException e) {
      LOG.warn("BigQuery emulator tick failed: {}", e.toString());
    }
  }

  /** The drain fault: every open connection closed at once. */
  private void drain() {
    LOG.info("Injected fault: draining, closed {} open connections", service.drainAll());
  }

  /**
   * Checks every visible row's content against the event its index must produce with {@code seed}
   * (the publishers' {@code --seed}); set before the first row arrives.
   */
  /** {@code job} writes its rows by {@code routing}: each is checked by it ({@link JobRouting}). */
  public void declareRouting(String job, JobRouting routing) {
    service.tables.declare(job, routing);
  }

  public void contentSeed(long seed) {
    service.verification.contentSeed(seed);
  }

  /**
   * The publisher wrote event indexes [0, N): rows with other indexes are counted as foreign, not
   * as accounted for. Call before rows arrive.
   */
  public void publishedMessages(long n) {
    service.verification.publishedMessages(n);
  }

  /** Names the round this server serves: its status and files carry the id. */
  public void runId(String runId) {
    this.runId = runId;
  }

  /**
   * The event indexes job {@code job} has written or dead-lettered (none when it has written
   * nothing).
   */
  /**
   * Job {@code job}'s latency of the messages meant to be sent in [{@code fromMs}, {@code toMs})
   * (by the paced publisher's {@link SendSchedule}); empty before its first row.
   */
  public WindowLatency windowLatency(String job, long fromMs, long toMs) {
    WrittenRows rows = service.verification.jobs().get(job);
    return rows == null
        ? new WindowLatency(fromMs, toMs, null, null)
        : rows.windowLatency(fromMs, toMs);
  }

  public AccountedIndexes accounted(String job) {
    WrittenRows rows = service.verification.jobs().get(job);
    return AccountedIndexes.of(job, rows == null ? new BitSet() : rows.accounted());
  }

  /**
   * Every job's verification, connections and throttling, as served at {@link EmulatorStatus#PATH}.
   */
  public EmulatorStatus status() {
    List<EmulatorStatus.Job> jobs = new ArrayList<>();
    // A job whose every append was refused has no row yet, and is still a job that writes.
    Map<String, WrittenRows> written = service.verification.jobs();
    for (String job : service.activity.jobs()) {
      written.putIfAbsent(job, new WrittenRows());
    }
    for (Map.Entry<String, WrittenRows> entry : written.entrySet()) {
      WrittenRows.Snapshot v = entry.getValue().snapshot();
      WrittenRows.Latencies l = entry.getValue().latencies();
      long[] c = service.connections.of(entry.getKey());
      jobs.add(
          new EmulatorStatus.Job(
              entry.getKey(),
              v.rowsWritten(),
              v.distinctEventIndexes(),
              v.duplicates(),
              v.unindexedRows(),
              v.deadLetterRows(),
              v.accountedFor(),
              v.deadLetterErrors(),
              l.all(),
              l.live(),
              l.backlog(),
              l.caughtUpAt(),
              (int) c[0],
              (int) c[1],
              c[2],
              service.timeline.dataBytes(entry.getKey()),
              v.deadLetterSamples(),
              v.foreignRows(),
              v.unindexedDeadLetters(),
              v.mismatchedRows(),
              v.mismatches(),
              entry.getValue().intendedLatency(),
              v.sourceDuplicates(),
              service.activity.requests(entry.getKey()),
              service.activity.inFlight(entry.getKey()),
              v.misroutedRows(),
              v.misroutes(),
              v.routeCheckedRows()));
    }
    List<EmulatorStatus.Stream> streams = new ArrayList<>();
    long invisible = 0;
    for (WriteStreamState stream : service.createdStreams()) {
      long[] counts = stream.appendedAndVisible();
      long appended = counts[0];
      long visible = counts[1];
      invisible += appended - visible;
      streams.add(
          new EmulatorStatus.Stream(
              stream.name.substring(stream.name.lastIndexOf('/') + 1),
              stream.table.dataset() + "." + stream.table.table(),
              stream.type.name(),
              Instant.ofEpochMilli(stream.createdMillis).toString(),
              appended,
              visible,
              stream.finalized()));
    }
    Connections connections = service.connections;
    return new EmulatorStatus(
        grpcAddress(),
        restUrl(),
        startedAt.toString(),
        connections.open(),
        connections.peak(),
        connections.opened(),
        connections.refused(),
        service.appendRequests(),
        service.quota.throttledAppends(),
        service.quota.throttledSeconds(),
        jobs,
        settings.quotaMbPerSecond(),
        settings.quotaWindowSeconds(),
        settings.maxConnections(),
        service.faultsInjected.get(),
        runId,
        invisible,
        streams,
        service.quotaTiers.refusedAppends(),
        service.verification.rowsDiscarded(),
        service.verification.rowsDuplicated(),
        service.verification.rowsCorrupted(),
        service.verification.contentSeed(),
        service.faults.counts(),
        service.rpcTimes.summary(),
        new EmulatorStatus.ApiCalls(
            service.tablesApi.get.calls.get(),
            service.tablesApi.get.throttled.get(),
            service.tablesApi.insert.calls.get(),
            service.tablesApi.insert.throttled.get(),
            settings.api().tablesPerSecond(),
            service.rpcTimes.calls(Faults.Rpc.CREATE_WRITE_STREAM),
            service.createStreamSlowdown.slowed.get(),
            settings.api().createWriteStreamPerSecond(),
            epochMsOrNull(service.tablesApi.insert.firstCallMs.get()),
            epochMsOrNull(service.tablesApi.insert.lastCallMs.get()),
            service.tablesApi.get.answerMs(50),
            service.tablesApi.get.answerMs(99),
            service.tablesApi.insert.answerMs(50),
            service.tablesApi.insert.answerMs(99)),
        service.quotaTiers.status());
  }

  /**
   * Writes the write timeline (per minute and second), connections per second and the status; when
   * several jobs wrote, each job's own timeline also goes to {@code dir/JOB/}, next to the files
   * its consumer writes there.
   */
  public void writeFiles(Path dir) throws IOException {
    Files.createDirectories(dir);
    service.timeline.writeCsv(dir.resolve(RunFiles.TIMELINE), 60, null);
    service.timeline.writeCsv(dir.resolve(RunFiles.TIMELINE_PER_SECOND), 1, null);
    SortedSet<String> jobs = service.timeline.jobs();
    if (jobs.size() > 1) {
      for (String job : jobs) {
        Path jobDir = dir.resolve(RunFiles.jobDirectory(job));
        Files.createDirectories(jobDir);
        service.timeline.writeCsv(jobDir.resolve(RunFiles.TIMELINE), 60, job);
        service.timeline.writeCsv(jobDir.resolve(RunFiles.TIMELINE_PER_SECOND), 1, job);
      }
    }
    service.connections.writeCsv(dir.resolve(RunFiles.CONNECTIONS));
    service.tableAppends.writeCsv(dir.resolve(RunFiles.TABLES));
    RunJson.write(dir.resolve(RunFiles.BIGQUERY_EMULATOR), status());
  }

  @Override
  public void close() {
    ticker.shutdownNow();
    rest.stop(0);
    restExecutor.shutdownNow();
    grpc.shutdownNow();
    try {
      grpc.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static IOException portInUse(String flag, int port, IOException e) {
    if (e instanceof BindException || e.getCause() instanceof BindException) {
      return new IOException(
          flag + " " + port + " is in use: pick another port, or 0 for a free one", e);
    }
    return e;
  }

  private static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  /** A recorded time, or null for 0 (not yet). */
  private static Long epochMsOrNull(long ms) {
    return ms == 0 ? null : ms;
  }
}
