package dev.ingestbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A round on a real Flink session cluster ({@code --runner flink-cluster}): a JobManager and two
 * TaskManagers started by the round, the job submitted to them by Beam's FlinkRunner, the same
 * verification and files as an embedded round.
 */
@Tag("e2e")
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class FlinkClusterRoundTest {

  /**
   * At-least-once without pooling opens a connection per destination table in every worker that
   * writes: 4 tables on 2 TaskManagers are 4 x 2 connections (the published law, N x W x J).
   */
  @Test
  void twoTaskManagersShareTheJobAndEachOpensItsOwnConnections(
      @TempDir Path out, @TempDir Path logs) throws Exception {
    Path log = logs.resolve("round.log");
    Process round =
        IngestbenchProcess.start(
            log,
            "round",
            "--out",
            out.toString(),
            "--force",
            "--runner",
            "flink-cluster",
            "--workers",
            "2",
            "--write-method",
            "at-least-once",
            "--destination-tables",
            "4",
            "--messages",
            "20000",
            "--live-messages",
            "0",
            "--heap",
            "512m",
            "--timeout",
            "300");
    List<ProcessHandle> seen = new ArrayList<>();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
      while (round.isAlive()
          && System.nanoTime() < deadline
          && !Files.readString(log).contains("connections open")) {
        Thread.sleep(500);
      }
      assertTrue(round.isAlive(), "the job is writing: " + Files.readString(log));
      seen.addAll(round.descendants().toList());
      if (ListeningSockets.supported()) {
        List<ProcessHandle> all = new ArrayList<>(seen);
        all.add(round.toHandle());
        List<ListeningSockets.Socket> sockets = ListeningSockets.of(all);
        assertTrue(
            sockets.stream().filter(s -> s.command().endsWith("java")).count() >= 6,
            "the JobManager, the TaskManagers and the emulators listen: " + sockets);
        assertEquals(
            List.of(),
            sockets.stream().filter(ListeningSockets.Socket::wildcard).toList(),
            "no process of the cluster or the round listens on every interface");
      }
      assertTrue(round.waitFor(240, TimeUnit.SECONDS), "the round ends");
    } finally {
      round.destroyForcibly();
    }
    String output = Files.readString(log);
    assertEquals(0, round.exitValue(), output);
    assertTrue(output.contains("2 TaskManagers of 1 slots"), output);
    JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    assertEquals(20_000, summary.get("written").asLong(), summary.toString());
    assertEquals(8, summary.get("peak_connections").asInt(), "4 tables x 2 TaskManagers");
    assertEquals("FlinkRunner on a Flink cluster", summary.get("runner").asText());
    String cpu = Files.readString(out.resolve("processes_cpu.csv"));
    assertTrue(
        cpu.contains(",taskmanager-1,") && cpu.contains(",taskmanager-2,"),
        "each TaskManager's CPU is recorded");
    String report = Files.readString(out.resolve("report.md"));
    assertTrue(
        report.contains("Flink TaskManagers"), "the TaskManagers ran the pipeline: " + report);
    assertTrue(
        report.contains("a JobManager and 2 TaskManagers of 1 slots"),
        "the environment names the cluster: " + report);
    assertTrue(
        new ObjectMapper()
            .readTree(out.resolve("round.json").toFile())
            .get("flink_cluster")
            .asText()
            .contains("each job with parallelism 2"));
    assertTrue(Files.exists(out.resolve("flink/taskmanager-2.log")), "the cluster's logs are kept");
    for (ProcessHandle p : seen) {
      p.onExit().get(30, TimeUnit.SECONDS); // every JVM of the cluster and the round is gone
    }
  }

  @Test
  void aClusterOnAnotherFlinkReleaseIsRefusedWithBothReleases(@TempDir Path out) throws Exception {
    HttpServer standIn =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    standIn.createContext(
        "/overview",
        exchange -> {
          byte[] body =
              "{\"taskmanagers\":1,\"slots-total\":4,\"slots-available\":4,\"jobs-running\":0,\"flink-version\":\"1.18.1\"}"
                  .getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    standIn.start();
    try {
      StringWriter err = new StringWriter();
      CommandLine cli = IngestbenchCommand.commandLine();
      cli.setErr(new PrintWriter(err, true));
      long start = System.nanoTime();
      int exit =
          cli.execute(
              "round",
              "--out",
              out.resolve("r").toString(),
              "--runner",
              "flink-cluster",
              "--flink-master",
              "127.0.0.1:" + standIn.getAddress().getPort());
      assertEquals(3, exit, err.toString());
      assertTrue(
          err.toString().contains("runs Flink 1.18.1")
              && err.toString().contains("built for Flink 1.19.0"),
          err.toString());
      assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(20), "refused at once");
    } finally {
      standIn.stop(0);
    }
  }
}
