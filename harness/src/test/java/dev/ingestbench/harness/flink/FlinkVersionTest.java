package dev.ingestbench.harness.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.flink.LocalFlinkCluster;
import java.io.IOException;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.junit.jupiter.api.Test;

/** The local cluster runs the Flink release Beam's runner artifact brings, and checks others. */
class FlinkVersionTest {
  @Test
  void theClusterRunsTheFlinkReleaseOfBeamsRunner() {
    // EnvironmentInformation is flink-runtime's own, here the one beam-runners-flink-1.19 pulls in.
    assertEquals(EnvironmentInformation.getVersion(), LocalFlinkCluster.version());
  }

  @Test
  void aClusterOnAnotherMinorReleaseIsRefusedAndAPatchReleaseAccepted() throws Exception {
    IOException e =
        assertThrows(
            IOException.class,
            () -> FlinkClusterRunner.requireRunnersRelease("10.0.0.5:8081", "1.20.1"));
    assertTrue(
        e.getMessage().contains("10.0.0.5:8081 runs Flink 1.20.1")
            && e.getMessage().contains("use a Flink 1.19.x cluster"),
        e.getMessage());
    FlinkClusterRunner.requireRunnersRelease("10.0.0.5:8081", "1.19.3");
  }
}
