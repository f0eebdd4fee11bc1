package dev.ingestbench.consumer.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

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
    assertNull(LocalRunnerDefaults.value(LocalRunnerDefaults.apply(new String[] {"--source=pubsub"}), "maxBundleSize"));
    String[] args = LocalRunnerDefaults.apply(new String[] {"--source=synthetic", "--maxBundleSize=500"});
    assertEquals("500", LocalRunnerDefaults.value(args, "maxBundleSize"));
  }

  @Test
  void dataflowGetsNothingAdded() {
    String[] args = {"--runner=DataflowRunner", "--source=synthetic"};
    assertEquals(2, LocalRunnerDefaults.apply(args).length);
  }
}
