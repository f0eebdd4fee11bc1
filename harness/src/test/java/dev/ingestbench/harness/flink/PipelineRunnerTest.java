package dev.ingestbench.harness.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.harness.process.ProcessCpuSampler;
import dev.ingestbench.harness.process.ServerWatch;
import dev.ingestbench.harness.spec.FlinkClusterSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a job's pipeline runs decides its CPU's name, what may kill it, and the cluster's start.
 */
class PipelineRunnerTest {
  private static final FlinkClusterSpec STARTED = new FlinkClusterSpec(2, 1, null, null, 768, 20L);
  private static final FlinkClusterSpec EXTERNAL =
      new FlinkClusterSpec(2, 1, 3, "127.0.0.1:8081", 768, null);

  @TempDir Path dir;

  @Test
  void inItsConsumersJvmTheJobIsTheJvmAndNothingIsStarted() throws Exception {
    PipelineRunner embedded = PipelineRunner.embeddedFlink();
    assertTrue(embedded.consumerJvmRunsPipeline());
    assertTrue(embedded.restoresFlinkState());
    assertEquals("consumer-2", embedded.consumerCpuName("job-2", "consumer-2"));
    assertNull(embedded.jobParallelism());
    assertNull(embedded.clusterDescription());
    assertEquals(Optional.empty(), embedded.describeStart());
    assertEquals(List.of("--runner", "FlinkRunner"), embedded.asRoundFlags());
    assertEquals("local", embedded.targetName());
    assertEquals(Optional.of("run it with --target flink"), embedded.taskManagerKillRefusal());
    embedded.validate(100, "--jobs 100"); // no slots to run out of
    try (ServerWatch watch = new ServerWatch("round")) {
      assertEquals(
          Optional.empty(), embedded.start(dir, new ProcessCpuSampler(dir), watch, line -> {}));
    }
  }

  @Test
  void theDirectRunnerRestoresNoFlinkState() {
    PipelineRunner direct = PipelineRunner.inConsumerJvm("DirectRunner");
    assertTrue(direct.consumerJvmRunsPipeline());
    assertFalse(direct.restoresFlinkState());
    assertEquals(List.of("--runner", "DirectRunner"), direct.asRoundFlags());
  }

  @Test
  void onAClusterTheConsumerOnlySubmitsAndTheSlotsAreChecked() {
    PipelineRunner cluster = PipelineRunner.onCluster(STARTED);
    assertFalse(cluster.consumerJvmRunsPipeline());
    assertEquals("FlinkRunner", cluster.beamRunner());
    assertEquals("flink-client-job-2", cluster.consumerCpuName("job-2", "consumer-2"));
    assertEquals(2, cluster.jobParallelism());
    assertEquals(20L, cluster.killTaskManagerAt());
    assertEquals("flink", cluster.targetName());
    assertEquals(Optional.empty(), cluster.taskManagerKillRefusal());
    assertTrue(cluster.describeStart().orElseThrow().startsWith("start a Flink session cluster"));
    assertEquals(List.of("--runner", "flink-cluster"), cluster.asRoundFlags().subList(0, 2));
    cluster.validate(1, "--jobs 1");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> cluster.validate(2, "--jobs 2"));
    assertTrue(e.getMessage().startsWith("--jobs 2: 2 jobs at once"), e.getMessage());
  }

  @Test
  void aClusterElsewhereHasNoTaskManagerOfTheRunsToKill() {
    PipelineRunner elsewhere = PipelineRunner.onCluster(EXTERNAL);
    assertEquals(3, elsewhere.jobParallelism());
    assertEquals(
        Optional.of("drop --flink-master, so that the run starts its own cluster"),
        elsewhere.taskManagerKillRefusal());
    assertTrue(elsewhere.describeStart().orElseThrow().startsWith("check the Flink cluster at"));
    elsewhere.validate(50, "--jobs 50"); // its slots are the cluster's to say
  }
}
