package dev.ingestbench.consumer.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.jobgraph.SavepointConfigOptions;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

class LocalRunnerDefaultsTest {
  @Test
  void boundedSyntheticInputGetsLargerBundlesSoFewerPendingStreams() {
    String[] args = LocalRunnerDefaults.apply(new String[] {"--source=synthetic"});
    assertEquals("10000", LocalRunnerDefaults.value(args, "maxBundleSize"));
    assertEquals("FlinkRunner", LocalRunnerDefaults.value(args, "runner"));
  }

  @Test
  void pubsubKeepsFlinksBundlesAndTheUsersValueWins() {
    assertNull(
        LocalRunnerDefaults.value(
            LocalRunnerDefaults.apply(new String[] {"--source=pubsub"}), "maxBundleSize"));
    String[] args =
        LocalRunnerDefaults.apply(new String[] {"--source=synthetic", "--maxBundleSize=500"});
    assertEquals("500", LocalRunnerDefaults.value(args, "maxBundleSize"));
  }

  @Test
  void dataflowGetsNothingAdded() {
    String[] args = {"--runner=DataflowRunner", "--source=synthetic"};
    assertEquals(2, LocalRunnerDefaults.apply(args).length);
  }

  @Test
  void checkpointsOfAProcessThatIsGoneAreRemovedAndOursKept() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    String ours =
        LocalRunnerDefaults.value(
            LocalRunnerDefaults.apply(new String[0]), "stateBackendStoragePath");
    Path mine = Files.createDirectories(Path.of(URI.create(ours)).resolve("chk-1"));
    Path orphan =
        Files.createDirectories(
            Path.of(
                    URI.create(
                        ours.replace(
                            "-" + ProcessHandle.current().pid() + "-", "-" + gone.pid() + "-")))
                .resolve("chk-7"));
    Files.writeString(orphan.resolve("_metadata"), "x");
    try {
      LocalRunnerDefaults.deleteOrphanedCheckpoints();
      assertFalse(Files.exists(orphan.getParent()), "a killed run's checkpoints are removed");
      assertTrue(Files.exists(mine), "a running process's checkpoints are kept");
    } finally {
      Files.deleteIfExists(mine);
      Files.deleteIfExists(mine.getParent());
    }
  }

  @Test
  void aSavepointPathReachesAnEmbeddedFlinkThroughItsConfiguration() throws Exception {
    String[] args = LocalRunnerDefaults.apply(new String[] {"--savepointPath=file:/tmp/x/chk-7"});
    Path dir = Path.of(LocalRunnerDefaults.value(args, "flinkConfDir"));
    String config = Files.readString(dir.resolve("config.yaml"));
    assertTrue(config.contains("execution.savepoint.path: \"file:/tmp/x/chk-7\""), config);
    assertTrue(config.contains("execution.savepoint.ignore-unclaimed-state: false"), config);
    // Flink's own parser reads what Beam will load from --flinkConfDir.
    assertEquals(
        "file:/tmp/x/chk-7",
        GlobalConfiguration.loadConfiguration(dir.toString())
            .get(SavepointConfigOptions.SAVEPOINT_PATH));
  }

  @Test
  void aSavepointPathWithAFlinkConfDirOfTheUsersIsRefusedWithTheFix() {
    IllegalArgumentException e =
        Assertions.assertThrows(
            IllegalArgumentException.class,
            () ->
                LocalRunnerDefaults.apply(
                    new String[] {"--savepointPath=file:/tmp/chk-1", "--flinkConfDir=/etc/flink"}));
    assertTrue(
        e.getMessage().contains("execution.savepoint.path: file:/tmp/chk-1"), e.getMessage());
  }

  /**
   * Flink binds its REST endpoint and blob server to every interface unless its configuration says
   * otherwise.
   */
  @Test
  void anEmbeddedFlinkListensOnLoopbackOnlyAndAUsersConfigurationIsKept() throws Exception {
    String[] args = LocalRunnerDefaults.apply(new String[0]);
    Path dir = Path.of(LocalRunnerDefaults.value(args, "flinkConfDir"));
    Configuration flink = GlobalConfiguration.loadConfiguration(dir.toString());
    assertEquals("127.0.0.1", flink.get(RestOptions.BIND_ADDRESS));
    assertEquals("127.0.0.1", flink.get(JobManagerOptions.BIND_HOST), "the blob server's");
    String[] users = LocalRunnerDefaults.apply(new String[] {"--flinkConfDir=/etc/flink"});
    assertEquals("/etc/flink", LocalRunnerDefaults.value(users, "flinkConfDir"));
    assertEquals(1, Arrays.stream(users).filter(a -> a.startsWith("--flinkConfDir")).count());
  }
}
