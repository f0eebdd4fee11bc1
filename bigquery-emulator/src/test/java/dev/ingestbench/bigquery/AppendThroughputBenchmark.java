package dev.ingestbench.bigquery;

import com.google.api.core.ApiFuture;
import com.google.cloud.bigquery.storage.v1.AppendRowsResponse;
import com.google.cloud.bigquery.storage.v1.ProtoRows;
import com.google.cloud.bigquery.storage.v1.StreamWriter;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import dev.ingestbench.events.TaxiRideGenerator;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * How many rows the emulator takes per CPU-second of its own process: a benchmark, not a test.
 * Starts the server as its own JVM, appends 500-byte rows to the default stream of one table from
 * several official-client writers at once, and divides the rows by the server process's CPU time
 * (from /proc) over the run.
 *
 * <pre>
 * ./mvnw -q -pl bigquery-emulator test-compile exec:java -Dexec.classpathScope=test \
 *     -Dexec.mainClass=dev.ingestbench.bigquery.AppendThroughputBenchmark -Dexec.args="10000000 4"
 * </pre>
 *
 * <p>A third argument {@code content} appends real events instead (json-column rows whose payload
 * is the publisher's 500-byte JSON message) to a server given {@code --content-seed}: what the
 * content check of every row costs, on its slowest path (parsing the payload).
 *
 * <p>A fourth argument {@code N} spreads the same appends over N tables through the client's
 * connection pool (each writer cycling through its tables, every table its own pooled writer): what
 * the table count costs the server per row. Give {@code plain} as the third to leave content
 * unchecked, e.g. {@code -Dexec.args="2000000 4 plain 10000"} against {@code "2000000 4 plain 1"}.
 */
public final class AppendThroughputBenchmark {
  private static final int ROWS_PER_APPEND = 1_000;
  private static final int IN_FLIGHT = 8;

  public static void main(String[] args) throws Exception {
    // The client logs every stream's open and close at INFO; the result line is what matters.
    Logger.getLogger("com.google.cloud.bigquery.storage").setLevel(Level.WARNING);
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 2_000_000;
    int writers = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    boolean content = args.length > 2 && args[2].equals("content");
    int tables = args.length > 3 ? Integer.parseInt(args[3]) : 0;
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g",
                "-XX:+UseParallelGC",
                "-cp",
                classPath(),
                BigQueryEmulatorCommand.class.getName(),
                "--port=0",
                "--rest-port=0",
                // The benchmark makes its tables as fast as it can: not what it measures.
                "--tables-api-quota=0",
                "--exit-on-stdin-eof"));
    if (content) {
      command.add("--content-seed=" + SEED);
    }
    Process server = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      String grpc = null;
      String rest = null;
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
      StringBuilder output = new StringBuilder();
      for (String line; (line = out.readLine()) != null; ) {
        output.append(line).append('\n');
        if (line.startsWith(BigQueryEmulatorCommand.READY_PREFIX)) {
          grpc = line.replaceAll(".* grpc=(\\S+).*", "$1");
          rest = line.replaceAll(".* rest=(\\S+).*", "$1");
          break;
        }
      }
      if (grpc == null) {
        throw new IllegalStateException("the emulator did not start:\n" + output);
      }
      run(server.pid(), grpc, rest, rows, writers, content, tables);
    } finally {
      server.getOutputStream().close();
      server.waitFor();
    }
  }

  private static final long SEED = 42;

  private static void run(
      long pid, String grpc, String rest, long rows, int writers, boolean content, int tables)
      throws Exception {
    try (OfficialClient bq = new OfficialClient(grpc, rest)) {
      List<String> names = new ArrayList<>();
      for (int k = 0; k < Math.max(1, tables); k++) {
        names.add(bq.createTable("bench_" + k));
      }
      String table = names.get(0);
      ProtoRows batch =
          content
              ? events(ROWS_PER_APPEND)
              : OfficialClient.rows(0, ROWS_PER_APPEND, 486); // ~500 B
      long appends = rows / ROWS_PER_APPEND;
      // Warm up both JVMs, then measure.
      long warmUp = Math.max(appends / 10, writers);
      if (tables > 0) {
        drivePooled(bq, names, writers, warmUp, batch);
      } else {
        drive(bq, table, writers, warmUp, batch);
      }
      double cpuBefore = cpuSeconds(pid);
      long start = System.nanoTime();
      long sent =
          tables > 0
              ? drivePooled(bq, names, writers, appends, batch)
              : drive(bq, table, writers, appends, batch);
      double wall = (System.nanoTime() - start) / 1e9;
      double cpu = cpuSeconds(pid) - cpuBefore;
      long sentRows = sent * ROWS_PER_APPEND;
      System.out.printf(
          Locale.ROOT,
          "%,d rows of %d B in %.1f s wall (%,.0f rows/s) by %d writers; server CPU %.1f s = %,.0f rows per server"
              + " CPU-second (%.2f µs/row); %d vCPUs shared by client and server; content %s; %s%n",
          sentRows,
          batch.getSerializedRows(0).size(),
          wall,
          sentRows / wall,
          writers,
          cpu,
          sentRows / cpu,
          cpu / sentRows * 1e6,
          Runtime.getRuntime().availableProcessors(),
          content ? "checked (json-column rows of real events)" : "not checked",
          tables > 0
              ? String.format(Locale.ROOT, "%,d table(s) through the connection pool", tables)
              : "one table, a connection per writer");
    }
  }

  /**
   * Rows of events 0..count-1: event index, publish time and the publisher's JSON message as
   * payload.
   */
  private static ProtoRows events(int count) throws Exception {
    TaxiRideGenerator generator = new TaxiRideGenerator(SEED, 470);
    ProtoRows.Builder rows = ProtoRows.newBuilder();
    long nowMicros = System.currentTimeMillis() * 1000;
    for (int i = 0; i < count; i++) {
      ByteString.Output out = ByteString.newOutput();
      CodedOutputStream coded = CodedOutputStream.newInstance(out);
      coded.writeInt64(1, i);
      coded.writeInt64(2, nowMicros);
      coded.writeBytes(3, ByteString.copyFrom(generator.message(i)));
      coded.flush();
      rows.addSerializedRows(out.toByteString());
    }
    return rows.build();
  }

  /** {@code appends} appends spread over {@code writers} writers, each keeping IN_FLIGHT open. */
  private static long drive(
      OfficialClient client, String table, int writers, long appends, ProtoRows batch)
      throws Exception {
    AtomicLong remaining = new AtomicLong(appends);
    CountDownLatch done = new CountDownLatch(writers);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      Thread t =
          new Thread(
              () -> {
                try (StreamWriter writer =
                    client.writer(table + "/streams/_default", "bench").build()) {
                  ArrayDeque<ApiFuture<AppendRowsResponse>> pending = new ArrayDeque<>();
                  while (remaining.getAndDecrement() > 0) {
                    pending.add(writer.append(batch));
                    if (pending.size() >= IN_FLIGHT) {
                      pending.removeFirst().get();
                    }
                  }
                  for (ApiFuture<AppendRowsResponse> f : pending) {
                    f.get();
                  }
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                } finally {
                  done.countDown();
                }
              });
      threads.add(t);
      t.start();
    }
    done.await();
    return appends;
  }

  /**
   * {@code appends} appends spread over {@code writers} threads, each cycling through the tables
   * (thread w writes tables w, w + writers, ...), every table a pooled writer of its own: the
   * client multiplexes them over its pool's connections, as Beam's connection pool does.
   */
  private static long drivePooled(
      OfficialClient client, List<String> tables, int writers, long appends, ProtoRows batch)
      throws Exception {
    AtomicLong remaining = new AtomicLong(appends);
    List<Thread> threads = new ArrayList<>();
    List<Exception> failed = new java.util.concurrent.CopyOnWriteArrayList<>();
    for (int w = 0; w < writers; w++) {
      int first = w;
      Thread t =
          new Thread(
              () -> {
                java.util.Map<String, StreamWriter> open = new java.util.HashMap<>();
                try {
                  ArrayDeque<ApiFuture<AppendRowsResponse>> pending = new ArrayDeque<>();
                  int next = first;
                  while (remaining.getAndDecrement() > 0) {
                    String table = tables.get(next % tables.size());
                    next += writers;
                    StreamWriter writer =
                        open.computeIfAbsent(
                            table,
                            name -> {
                              try {
                                return client
                                    .writer(name + "/streams/_default", "bench")
                                    .setEnableConnectionPool(true)
                                    .setLocation("local")
                                    .build();
                              } catch (java.io.IOException e) {
                                throw new java.io.UncheckedIOException(e);
                              }
                            });
                    pending.add(writer.append(batch));
                    if (pending.size() >= IN_FLIGHT) {
                      pending.removeFirst().get();
                    }
                  }
                  for (ApiFuture<AppendRowsResponse> f : pending) {
                    f.get();
                  }
                } catch (Exception e) {
                  failed.add(e);
                } finally {
                  open.values().forEach(StreamWriter::close);
                }
              });
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    if (!failed.isEmpty()) {
      throw failed.get(0);
    }
    return appends;
  }

  /**
   * The classpath this class was loaded from: under {@code exec:java} that is the plugin's class
   * loader, not {@code java.class.path} (Maven's own launcher).
   */
  private static String classPath() throws Exception {
    if (AppendThroughputBenchmark.class.getClassLoader() instanceof URLClassLoader loader) {
      List<String> entries = new ArrayList<>();
      for (URL url : loader.getURLs()) {
        entries.add(Path.of(url.toURI()).toString());
      }
      return String.join(File.pathSeparator, entries);
    }
    return System.getProperty("java.class.path");
  }

  /** utime + stime of process {@code pid}, in seconds (Linux). */
  private static double cpuSeconds(long pid) throws Exception {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
  }
}
