package dev.ingestbench.analysis.summary;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The summary's one-cell verdict: every way a row fails, and what passes. */
class VerificationTest {
  @Test
  void lossDuplicatesUnderExactlyOnceAndAnIncompleteRunFail() {
    assertEquals("failed: lost 3", Verification.of(3, 0, false, true));
    assertEquals("failed: 2 duplicates", Verification.of(0, 2, true, true));
    assertEquals("failed: incomplete", Verification.of(0, 0, true, false));
    assertEquals("failed: lost 1, 2,307 duplicates", Verification.of(1, 2_307, true, false));
  }

  @Test
  void atLeastOnceDuplicatesPassAndAreSaid() {
    assertEquals("passed", Verification.of(0, 0, true, true));
    assertEquals(
        "passed (1,466 duplicates, at-least-once)", Verification.of(0, 1_466, false, true));
  }
}
