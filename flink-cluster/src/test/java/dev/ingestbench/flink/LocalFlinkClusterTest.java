package dev.ingestbench.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.LoopbackPorts;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Tag("e2e")
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class LocalFlinkClusterTest {
  /** Kept under target/ for a failure's reader. */
  private static final Path LOGS = Path.of("target", "flink-logs");

  @Test
  void twoTaskManagersRegisterAKilledOneIsReplacedAndCloseLeavesNothing(@TempDir Path tmp)
      throws Exception {
    Path dir = tmp.resolve("cluster");
    List<FlinkProcess> processes;
    // The first port it is given (the JobManager's RPC port) is taken by the time the JobManager
    // binds it, as when another process takes a free port first: the cluster starts again on
    // others.
    LocalFlinkCluster started;
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      AtomicInteger asked = new AtomicInteger();
      LoopbackPorts.Chooser ports =
          () -> asked.getAndIncrement() == 0 ? taken.getLocalPort() : LoopbackPorts.free();
      started = LocalFlinkCluster.start(dir, LOGS.resolve("two"), 2, 2, 256, ports);
      assertEquals(6, asked.get(), "started again, on three other ports");
    }
    try (LocalFlinkCluster cluster = started) {
      FlinkRest.Overview overview = FlinkRest.overview(cluster.master());
      assertEquals(2, overview.taskManagers());
      assertEquals(4, overview.slotsTotal());
      assertEquals(LocalFlinkCluster.version(), overview.flinkVersion());
      assertTrue(cluster.master().startsWith("127.0.0.1:"), cluster.master());

      FlinkProcess first = cluster.taskManagers().get(0);
      FlinkProcess replacement = cluster.killTaskManager(1);
      assertFalse(first.isAlive(), "killed");
      assertEquals("taskmanager-3", replacement.name());
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      // The JobManager notices the dead one only after its heartbeat timeout; the fresh one
      // registers at once.
      while (FlinkRest.overview(cluster.master()).slotsAvailable() < 4
          && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
      assertTrue(FlinkRest.overview(cluster.master()).slotsAvailable() >= 4);
      processes = cluster.processes();
    }
    for (FlinkProcess p : processes) {
      assertFalse(p.isAlive(), p.name() + " still runs after close");
    }
    assertFalse(Files.exists(dir), "the working directory is removed");
    assertTrue(Files.exists(LOGS.resolve("two/jobmanager.log")), "logs are kept");
  }

  @Test
  void aTaskManagerThatCannotStartIsNamedWithTheEndOfItsLog(@TempDir Path tmp) {
    // A task heap below Flink's minimum for the network and framework: its configuration check
    // refuses it and the TaskManager exits.
    IOException e =
        assertThrows(
            IOException.class,
            () -> LocalFlinkCluster.start(tmp.resolve("c"), LOGS.resolve("bad"), 1, 1, -1));
    assertTrue(e.getMessage().contains("taskmanager-1 exited"), e.getMessage());
    assertTrue(e.getMessage().contains("first error: "), e.getMessage());
    assertFalse(Files.exists(tmp.resolve("c")), "removed after a failed start");
  }

  @Test
  void aWorkDirectoryLeftByAKilledProcessIsRemovedByTheNextCluster() throws Exception {
    // pid 2^22+1 is above Linux's pid_max: no such process
    Path orphan =
        Path.of(System.getProperty("java.io.tmpdir"), "ingestbench-flink-cluster-4194305-left");
    Files.createDirectories(orphan.resolve("blobs"));
    Path fresh = LocalFlinkCluster.newWorkDirectory();
    assertFalse(Files.exists(orphan), "removed");
    assertTrue(
        fresh
            .getFileName()
            .toString()
            .startsWith("ingestbench-flink-cluster-" + ProcessHandle.current().pid() + "-"),
        fresh.toString());
  }

  @Test
  void aMasterWhereNothingAnswersIsNamedWithinSeconds() throws Exception {
    long start = System.nanoTime();
    IOException e = assertThrows(IOException.class, () -> FlinkRest.overview("127.0.0.1:1"));
    assertTrue(e.getMessage().contains("127.0.0.1:1"), e.getMessage());
    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10));
  }
}
