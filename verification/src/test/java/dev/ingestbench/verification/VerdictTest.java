package dev.ingestbench.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.ExitCodes;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

class VerdictTest {
  private static final VerificationPolicy STRICT = new VerificationPolicy(0);

  /**
   * A job that accounted for {@code accounted} of 1,000 published, with {@code left} left in its
   * source.
   */
  private static JobCounts job(
      String stage,
      String job,
      boolean exactlyOnce,
      long accounted,
      Long left,
      long duplicates,
      long deadLettered) {
    return new JobCounts(
        stage,
        job,
        exactlyOnce,
        1_000,
        accounted + duplicates,
        accounted,
        duplicates,
        deadLettered,
        accounted,
        left,
        null);
  }

  @Test
  void everyJobOfEveryStagePassingExitsZero() {
    Verdict v = new Verdict(STRICT);
    v.judge(job("a-alone", "a", true, 1_000, 0L, 0, 0));
    v.judge(job("a-and-b", "b", true, 600, 400L, 0, 0));
    assertTrue(v.passed());
    assertEquals(ExitCodes.OK, v.exitCode());
    assertEquals(2, v.judged());
  }

  @Test
  void oneJobsLossIsNotHiddenByAnotherJobsSurplus() {
    Verdict v = new Verdict(STRICT);
    v.judge(job(null, "consumer-1", true, 990, null, 0, 0)); // lost 10
    v.judge(job(null, "consumer-2", true, 1_010, null, 0, 0)); // counted 10 too many
    assertEquals(
        ExitCodes.INCOMPLETE, v.exitCode(), "the combined count balances; the jobs do not");
    Finding first = v.failuresFirst().get(0);
    assertEquals(Finding.Kind.LOST, first.kind());
    assertEquals("consumer-1", first.job());
    assertTrue(first.line().startsWith("job consumer-1: lost 10 of 1,000"), first.line());
    assertEquals(
        Finding.Kind.UNVERIFIED,
        v.failuresFirst().get(1).kind(),
        "a surplus is a miscount, never a pass");
  }

  @Test
  void lostIsPublishedMinusAccountedMinusLeftAndNeverClamped() {
    assertEquals(0, job("s", "a", true, 600, 400L, 0, 0).lost());
    assertEquals(1, job("s", "a", true, 600, 399L, 0, 0).lost());
    assertEquals(-1, job("s", "a", true, 600, 401L, 0, 0).lost());
    Verdict v = new Verdict(STRICT);
    v.judge(job("a-and-b", "a", true, 600, 399L, 0, 0));
    assertEquals(
        ExitCodes.INCOMPLETE, v.exitCode(), "one message neither written, dead-lettered nor left");
    assertTrue(
        v.findings().get(0).message().contains("399 left in its source"), v.findings().toString());
  }

  @Test
  void aRowOfWrongContentFailsEveryWriteMethod() {
    for (boolean exactlyOnce : new boolean[] {true, false}) {
      Verdict v = new Verdict(STRICT);
      v.judge(
          job(null, "consumer", exactlyOnce, 1_000, null, 0, 0)
              .withMismatched(3, "event_index 7: ride_status is 'x', expected 'pickup'"));
      assertEquals(
          ExitCodes.INCOMPLETE, v.exitCode(), "nothing lost, but three rows hold the wrong values");
      assertEquals(Finding.Kind.MISMATCHED, v.findings().get(0).kind());
      assertTrue(
          v.findings()
              .get(0)
              .line()
              .contains(
                  "3 row(s) do not hold what their event must produce, e.g."
                      + " event_index 7: ride_status is 'x'"),
          v.findings().get(0).line());
    }
  }

  @Test
  void duplicatesFailExactlyOnceOnly() {
    Verdict exactlyOnce = new Verdict(STRICT);
    exactlyOnce.judge(job(null, "consumer", true, 1_000, null, 7, 0));
    assertEquals(ExitCodes.INCOMPLETE, exactlyOnce.exitCode());
    assertEquals(Finding.Kind.DUPLICATES, exactlyOnce.findings().get(0).kind());

    Verdict atLeastOnce = new Verdict(STRICT);
    atLeastOnce.judge(job(null, "consumer", false, 1_000, null, 7, 0));
    assertEquals(ExitCodes.OK, atLeastOnce.exitCode(), "at-least-once may write a message twice");
  }

  @Test
  void eventsTheSourceCarriedTwiceDoNotFailExactlyOnceTheSinksDuplicatesDo() {
    Verdict sourceOnly = new Verdict(STRICT);
    sourceOnly.judge(job(null, "consumer", true, 1_000, null, 0, 0).withSourceDuplicates(347));
    assertEquals(
        ExitCodes.OK, sourceOnly.exitCode(), "another message id: the publisher resent the event");

    Verdict both = new Verdict(STRICT);
    both.judge(job(null, "consumer", true, 1_000, null, 2, 0).withSourceDuplicates(347));
    assertEquals(ExitCodes.INCOMPLETE, both.exitCode());
    assertEquals(1, both.findings().size());
    assertEquals("exactly-once wrote 2 duplicate row(s)", both.findings().get(0).message());
  }

  @Test
  void deadLettersAboveTheLimitFail() {
    Verdict atLimit = new Verdict(new VerificationPolicy(3));
    atLimit.judge(job(null, "consumer", true, 1_000, null, 0, 3));
    assertEquals(ExitCodes.OK, atLimit.exitCode());

    Verdict above = new Verdict(new VerificationPolicy(3));
    above.judge(job(null, "consumer", true, 1_000, null, 0, 4));
    assertEquals(ExitCodes.INCOMPLETE, above.exitCode());
    assertEquals(Finding.Kind.DEAD_LETTERS, above.findings().get(0).kind());
  }

  @Test
  void aFailedLoadTestStageFailsTheRun() {
    Verdict v = new Verdict(STRICT);
    v.judge(job("a-alone", "a", true, 1_000, 0L, 0, 0));
    v.add(new Finding("source", null, Finding.Kind.LOAD_TEST, "received 900 of 1,000 published"));
    assertEquals(ExitCodes.INCOMPLETE, v.exitCode());
    assertEquals("stage source: received 900 of 1,000 published", v.findings().get(0).line());
  }

  @Test
  void whatCouldNotBeVerifiedExitsThreeUnlessSomethingFailed() {
    Verdict timedOut = new Verdict(STRICT);
    timedOut.judge(
        job(null, "consumer", true, 400, null, 0, 0).unverified("stopped at --timeout 60 s"));
    assertEquals(ExitCodes.FAILED, timedOut.exitCode(), "a timeout is not a measured loss");
    assertEquals(
        1, timedOut.findings().size(), "an unverified job's shortfall is not also called lost");

    Verdict both = new Verdict(STRICT);
    both.judge(
        job(null, "consumer-1", true, 400, null, 0, 0).unverified("stopped at --timeout 60 s"));
    both.judge(job(null, "consumer-2", true, 1_000, null, 2, 0));
    assertEquals(ExitCodes.INCOMPLETE, both.exitCode(), "a failure elsewhere decides");
    assertEquals(
        List.of(Finding.Kind.DUPLICATES, Finding.Kind.UNVERIFIED),
        both.failuresFirst().stream().map(Finding::kind).toList());
  }

  @Test
  void aNegativeDeadLetterLimitIsRefused() {
    IllegalArgumentException e =
        Assertions.assertThrows(IllegalArgumentException.class, () -> new VerificationPolicy(-1));
    assertTrue(e.getMessage().contains("0 or more"), e.getMessage());
  }

  @Test
  void aMessageWrittenButHandedBackToTheSourceCountsOnceAsAccountedFor() {
    BitSet accounted = new BitSet();
    accounted.set(0, 60); // written
    BitSet inSource = new BitSet();
    inSource.set(
        50, 100); // 50..59 were written, then handed back unacknowledged when the job stopped
    inSource.set(5_000); // beyond what was published: not counted
    assertEquals(40, LeftInSource.count(inSource, accounted, 100));
    JobCounts c =
        new JobCounts(
            "s",
            "a",
            true,
            100,
            60,
            60,
            0,
            0,
            60,
            LeftInSource.count(inSource, accounted, 100),
            null);
    assertEquals(0, c.lost());
  }
}
