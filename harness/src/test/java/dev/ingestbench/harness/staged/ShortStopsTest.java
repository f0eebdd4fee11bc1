package dev.ingestbench.harness.staged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.verification.JobCounts;
import dev.ingestbench.verification.Verdict;
import dev.ingestbench.verification.VerificationPolicy;
import java.nio.file.Path;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * A consumer that stopped by itself short of its count: not verified while it left messages in its
 * source, judged once it had read its source to the end.
 */
class ShortStopsTest {
  private static final Path LOG = Path.of("consumer.log");

  /** Job a, of 100 published: {@code accounted} accounted for, {@code left} left. */
  private static JobCounts counts(long accounted, Long left) {
    return counts(true, accounted, left);
  }

  /** As above, of an exactly-once job or not. */
  private static JobCounts counts(boolean exactlyOnce, long accounted, Long left) {
    return new JobCounts(
        "s", "a", exactlyOnce, 100, accounted, accounted, 0, 0, accounted, left, null);
  }

  /** {@code counts} of job a, judged once its consumer ended with {@code exit} at 40 of 100. */
  private static JobCounts judged(int exit, JobCounts counts) {
    ShortStops stops = new ShortStops();
    stops.seen("a", new StageTarget.JobReading(OptionalInt.of(exit), 100, 40, false, LOG));
    return stops.judged("a", counts, LOG);
  }

  private static int exitOf(JobCounts counts) {
    Verdict verdict = new Verdict(new VerificationPolicy(0));
    verdict.judge(counts);
    return verdict.exitCode();
  }

  @Test
  void aConsumerThatStoppedShortWithMessagesLeftIsNotVerified() {
    JobCounts c = judged(ExitCodes.INCOMPLETE, counts(40, 60L));
    assertEquals(ExitCodes.FAILED, exitOf(c), "not verified: exit 3");
    assertTrue(c.unverified().contains("with 40 of 100 messages accounted for"), c.unverified());
    assertTrue(c.unverified().contains("left 60 in its source:"), c.unverified());
  }

  @Test
  void whatItsCancelLostIsNamedAndStillNotALoss() {
    JobCounts c = judged(ExitCodes.INCOMPLETE, counts(40, 50L));
    assertEquals(ExitCodes.FAILED, exitOf(c));
    assertTrue(c.unverified().contains("and 10 neither written nor left"), c.unverified());
    assertTrue(c.unverified().contains("(under exactly-once, what it had appended"));
    JobCounts atLeastOnce = judged(ExitCodes.INCOMPLETE, counts(false, 40, 50L));
    assertTrue(atLeastOnce.unverified().contains("and 10 neither written nor left:"));
    assertFalse(atLeastOnce.unverified().contains("exactly-once"), atLeastOnce.unverified());
  }

  @Test
  void aConsumerThatReadItsSourceToTheEndIsJudged() {
    JobCounts c = judged(ExitCodes.INCOMPLETE, counts(40, 0L));
    assertNull(c.unverified());
    assertEquals(ExitCodes.INCOMPLETE, exitOf(c), "60 lost: exit 1");
  }

  @Test
  void aConsumerThatEndedAtItsCountOrFailedIsNotItsConcern() {
    assertNull(judged(ExitCodes.OK, counts(40, 60L)).unverified());
    assertNull(judged(ExitCodes.FAILED, counts(40, 60L)).unverified(), "a failure ends the run");
    ShortStops none = new ShortStops();
    assertNull(none.judged("a", counts(40, 60L), LOG).unverified(), "never seen to stop short");
  }
}
