package dev.ingestbench.verification;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.ingestbench.contracts.SinkTally;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A job counted from its sink's tally: every figure of the tally carried, none assumed. */
class JobCountsOfTest {
  private record Tally(
      long rowsWritten,
      long distinctMessageIds,
      long duplicates,
      long deadLettered,
      long accountedFor,
      long mismatchedRows,
      List<String> mismatches,
      long sourceDuplicates,
      long misroutedRows,
      List<String> misroutes)
      implements SinkTally {}

  @Test
  void everyFigureOfTheTallyIsCarriedAndLossIsWhatNeitherAccountedNorLeft() {
    JobCounts c =
        JobCounts.of(
            "s",
            "a",
            true,
            1_000,
            new Tally(
                905,
                900,
                5,
                10,
                910,
                2,
                List.of("event_index 7: fare", "event_index 9"),
                3,
                4,
                List.of("event_index 11: in rides_2, its event goes to rides_0")),
            910,
            40L);
    assertEquals(905, c.written());
    assertEquals(900, c.distinct());
    assertEquals(5, c.duplicates());
    assertEquals(10, c.deadLettered());
    assertEquals(2, c.mismatched());
    assertEquals("event_index 7: fare", c.firstMismatch());
    assertEquals(3, c.sourceDuplicates());
    assertEquals(4, c.misrouted());
    assertEquals("event_index 11: in rides_2, its event goes to rides_0", c.firstMisroute());
    assertEquals(50, c.lost(), "1,000 published, 910 accounted for, 40 left");
    assertNull(c.unverified());
  }

  @Test
  void aGroupsAccountingReplacesTheJobsOwnAndNoMismatchIsNone() {
    JobCounts c =
        JobCounts.of(
            "s", "a", false, 100, new Tally(60, 60, 0, 0, 60, 0, null, 0, 0, null), 100, null);
    assertEquals(0, c.lost(), "the group accounted for every message");
    assertNull(c.firstMismatch());
    assertNull(c.firstMisroute());
  }

  /** A row in another table than its event's fails the job, even with nothing lost. */
  @Test
  void aMisroutedRowFailsTheJobAndNoneDoesNot() {
    JobCounts misrouted =
        JobCounts.of(
            null,
            "a",
            false,
            10,
            new Tally(10, 10, 0, 0, 10, 0, null, 0, 1, List.of("event_index 3: in t_1")),
            10,
            null);
    Verdict verdict = new Verdict(new VerificationPolicy(0));
    verdict.judge(misrouted);
    assertEquals(
        List.of(Finding.Kind.MISROUTED), verdict.findings().stream().map(Finding::kind).toList());
    assertEquals(1, verdict.exitCode());
    Verdict clean = new Verdict(new VerificationPolicy(0));
    clean.judge(
        JobCounts.of(
            null, "a", false, 10, new Tally(10, 10, 0, 0, 10, 0, null, 0, 0, null), 10, null));
    assertEquals(0, clean.exitCode());
  }

  /** Figures that cannot decide loss still carry wrong rows: those fail the job all the same. */
  @Test
  void unverifiedFiguresKeepTheirMismatchedRowsAndFailOnThem() {
    JobCounts c =
        JobCounts.of(
                "s",
                "a",
                true,
                0,
                new Tally(10, 10, 0, 0, 10, 2, List.of("event_index 3"), 0, 0, null),
                10,
                null)
            .unverified("a publisher was stopped before it wrote its result");
    assertEquals(2, c.mismatched());
    Verdict verdict = new Verdict(new VerificationPolicy(0));
    verdict.judge(c);
    assertEquals(
        List.of(Finding.Kind.MISMATCHED, Finding.Kind.UNVERIFIED),
        verdict.findings().stream().map(Finding::kind).sorted().toList(),
        verdict.findings().toString());
  }
}
