package dev.ingestbench.contracts;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which stop reasons say a consumer stopped by itself short of its count. */
class ConsumerResultStopTest {
  @Test
  void aTimeoutOrAnEndedPipelineStopsShortAndACountReachedDoesNot() {
    assertTrue(ConsumerResult.stoppedShort("timeout after 600 s; missing event indexes: 3-9"));
    assertTrue(ConsumerResult.stoppedShort(ConsumerResult.PIPELINE_ENDED + ": DONE"));
    assertFalse(ConsumerResult.stoppedShort("all 100 messages written or dead-lettered"));
    assertFalse(ConsumerResult.stoppedShort("stopped: the process was asked to stop"));
    assertFalse(ConsumerResult.stoppedShort(null));
  }

  /** A round of several jobs joins their reasons: one job that timed out is enough. */
  @Test
  void oneJobOfSeveralThatTimedOutStopsTheRoundShort() {
    assertTrue(
        ConsumerResult.stoppedShort(
            "all 100 messages written or dead-lettered; timeout after 600 s"));
  }
}
