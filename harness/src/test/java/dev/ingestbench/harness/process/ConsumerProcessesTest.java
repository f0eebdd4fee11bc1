package dev.ingestbench.harness.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.ConsumerProgress;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.harness.flink.PipelineRunner;
import dev.ingestbench.harness.spec.FlinkClusterSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one naming rule of a consumer's lives, as a round names them (job {@code job-1}, process
 * {@code consumer}), with scripted processes instead of JVMs.
 */
class ConsumerProcessesTest {
  @TempDir Path dir;

  private final List<ScriptedProcess> launched = new ArrayList<>();
  private ProcessCpuSampler cpu;
  private ConsumerProcesses consumers;

  @BeforeEach
  void consumers() {
    cpu = new ProcessCpuSampler(dir);
    consumers =
        new ConsumerProcesses(
            command -> {
              ScriptedProcess p =
                  new ScriptedProcess(
                      command,
                      written -> ExitCodes.OK,
                      List.of("starting", new ConsumerProgress(10, 7 + launched.size()).toLine()));
              launched.add(p);
              return p;
            },
            "256m",
            PipelineRunner.embeddedFlink());
  }

  @AfterEach
  void close() throws Exception {
    consumers.close();
    cpu.close();
  }

  @Test
  void aRestartedLifeLogsToTheNameAndTheKilledLifesLogIsNumbered() throws Exception {
    consumers.start("job-1", "consumer", List.of("--a=1"), dir, cpu, null);
    assertTrue(Files.exists(dir.resolve("consumer.log")));
    assertEquals(launched.get(0).pid(), cpu.watched().get("consumer"), "its CPU is the name's");
    assertEquals(launched.get(0).pid(), consumers.pid("job-1"));
    awaitProgress(7);

    launched.get(0).destroyForcibly(); // the kill
    consumers.restart("job-1", "consumer", List.of("--a=2"), dir, cpu, null);
    assertTrue(Files.exists(dir.resolve("consumer.1.log")), "the killed life's log is kept");
    assertTrue(
        Files.readString(dir.resolve("consumer.log")).contains("--a=2"),
        "consumer.log is the running life's");
    assertEquals(launched.get(1).pid(), consumers.pid("job-1"));
    assertEquals(launched.get(1).pid(), cpu.watched().get("consumer-life-2"), "a restored life's");
    awaitProgress(8);
    assertEquals(OptionalInt.empty(), consumers.ended("job-1"), "the new life runs");

    launched.get(1).exitNow(ExitCodes.INCOMPLETE);
    assertEquals(OptionalInt.of(ExitCodes.INCOMPLETE), consumers.ended("job-1"));
    assertTrue(consumers.remove("job-1") != null);
    assertNull(consumers.jvm("job-1"));
    assertEquals(-1, consumers.pid("job-1"));
    assertFalse(launched.get(1).isAlive());
  }

  /** On a cluster the JVM only submits the job: its CPU is the job's client's. */
  @Test
  void onAClusterTheConsumersCpuIsNamedAsTheJobsClient() throws Exception {
    try (ConsumerProcesses onCluster =
        new ConsumerProcesses(
            command -> new ScriptedProcess(command, written -> ExitCodes.OK),
            "256m",
            PipelineRunner.onCluster(new FlinkClusterSpec(2, 1, null, null, 768, null)))) {
      ChildJvm jvm = onCluster.start("job-1", "consumer", List.of(), dir, cpu, null);
      assertEquals(jvm.pid(), cpu.watched().get("flink-client-job-1"));
    }
  }

  /** The progress line is read on the process's output thread. */
  private void awaitProgress(long accounted) throws InterruptedException {
    for (int i = 0; i < 100 && consumers.progress("job-1") != accounted; i++) {
      Thread.sleep(20);
    }
    assertEquals(accounted, consumers.progress("job-1"));
  }
}
