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

  /**
   * What a consumer that stopped short did not account for is not all lost while some was left in
   * its source (or that was not counted); otherwise it is.
   */
  @Test
  void onlyAShortStopThatLeftSomeLeavesWhatWasNotAccountedForNotAllLost() {
    String timedOut = ConsumerResult.TIMED_OUT + " after 600 s";
    assertTrue(ConsumerResult.notAllLost(40, 30L, timedOut));
    assertTrue(ConsumerResult.notAllLost(40, null, timedOut), "not counted: not known lost");
    assertFalse(ConsumerResult.notAllLost(40, 0L, timedOut), "nothing left: lost, as judged");
    assertFalse(ConsumerResult.notAllLost(0, 30L, timedOut));
    assertFalse(ConsumerResult.notAllLost(40, 30L, "stopped: the process was asked to stop"));
    assertFalse(ConsumerResult.notAllLost(40, 30L, null));
  }
}
