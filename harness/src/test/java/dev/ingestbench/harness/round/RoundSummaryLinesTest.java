package dev.ingestbench.harness.round;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The round's line for what its consumers did not account for. */
class RoundSummaryLinesTest {
  @Test
  void whatConsumersThatReadToTheEndDidNotAccountForIsLost() {
    assertEquals(
        "lost 40", RoundSummaryLines.lost(40, 0L, "all 100 messages written or dead-lettered"));
    assertEquals("lost 0", RoundSummaryLines.lost(0, null, "timeout after 600 s"));
  }

  @Test
  void aConsumerThatStoppedShortLeftSomeInItsSource() {
    assertEquals(
        "not accounted for 100 (a consumer stopped short: 60 left in the source, as the"
            + " verification read it)",
        RoundSummaryLines.lost(100, 60L, "timeout after 600 s; missing event indexes: 40-99"));
    assertEquals(
        "not accounted for 100 (a consumer stopped short; what it left was not counted)",
        RoundSummaryLines.lost(100, null, "pipeline ended: DONE"));
  }

  /**
   * A consumer that stopped short but left nothing in its source has lost what it did not write, as
   * its verification judges it (exit 1): the line says lost too.
   */
  @Test
  void aConsumerThatStoppedShortWithNothingLeftLost() {
    assertEquals("lost 40", RoundSummaryLines.lost(40, 0L, "timeout after 600 s"));
  }

  /** Several jobs' reasons are joined: one that timed out makes the round's line say so. */
  @Test
  void oneJobOfSeveralThatStoppedShortIsEnough() {
    assertEquals(
        "not accounted for 60 (a consumer stopped short: 60 left in the source, as the"
            + " verification read it)",
        RoundSummaryLines.lost(
            60, 60L, "all 100 messages written or dead-lettered; timeout after 600 s"));
  }
}
