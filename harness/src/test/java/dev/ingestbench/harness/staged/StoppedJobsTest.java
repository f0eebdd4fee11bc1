package dev.ingestbench.harness.staged;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.verification.JobCounts;
import dev.ingestbench.verification.LeftInSource;
import dev.ingestbench.verification.Verdict;
import dev.ingestbench.verification.VerificationPolicy;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Jobs that share a Kafka consumer group are verified as the group: a message either wrote is
 * accounted for, and one neither wrote nor left in the group is lost.
 */
class StoppedJobsTest {
  private static final long PUBLISHED = 1_000;

  private static BitSet range(int from, int to) {
    BitSet b = new BitSet();
    b.set(from, to);
    return b;
  }

  /** Job b's verdict when a wrote {@code a} and b wrote {@code b}, nothing left in the group. */
  private static int verdictOfB(BitSet a, BitSet b) throws Exception {
    BitSet group = StoppedJobs.accountedBy(List.of("a", "b"), Map.of("a", a, "b", b)::get);
    long left = LeftInSource.count(new BitSet(), group, PUBLISHED);
    Verdict verdict = new Verdict(new VerificationPolicy(0));
    verdict.judge(
        new JobCounts(
            "b-alone",
            "b",
            false,
            PUBLISHED,
            b.cardinality(),
            b.cardinality(),
            0,
            0,
            group.cardinality(),
            left,
            null));
    return verdict.exitCode();
  }

  @Test
  void aJobOfASharedGroupIsVerifiedAgainstWhatTheGroupWrote() throws Exception {
    // b started from the offsets a committed: a wrote 0..599, b the rest, overlapping a little
    assertEquals(ExitCodes.OK, verdictOfB(range(0, 600), range(590, 1_000)));
    // b read nothing itself: a had written everything
    assertEquals(ExitCodes.OK, verdictOfB(range(0, 1_000), new BitSet()));
  }

  @Test
  void aMessageNoJobOfTheGroupWroteIsLost() throws Exception {
    // 600..609: neither job wrote them, and the group left nothing unread: lost, exit 1
    assertEquals(ExitCodes.INCOMPLETE, verdictOfB(range(0, 600), range(610, 1_000)));
  }
}
