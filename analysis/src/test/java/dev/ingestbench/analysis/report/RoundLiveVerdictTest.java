package dev.ingestbench.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.RoundSummary;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A live phase's own verdict, from recorded rounds on 2 vCPUs (src/test/resources/recorded): kept
 * up where the job wrote what was offered, with the headroom its drain showed; fell behind, with
 * the round's limit, where it did not; none where there was no live traffic.
 */
class RoundLiveVerdictTest {
  private static final Path RECORDED = Path.of("src/test/resources/recorded");

  @Test
  void aJobThatWroteWhatWasOfferedKeptUpWithItsHeadroom() throws Exception {
    RoundSummary s = RoundSummaryJson.of(RoundAnalysis.of(RECORDED.resolve("round-live-kept-up")));
    assertEquals("kept-up", s.liveLimitedBy(), s.liveLimitedByEvidence());
    assertTrue(
        s.liveLimitedByEvidence()
            .matches(
                "the jobs wrote 1,0\\d\\d rows/s of the 1,000 msg/s the live publisher offered"
                    + " \\(10\\d%, over \\d+ s of its 30 s\\), live latency p99 2,287 ms; headroom"
                    + " 9\\.\\dx: the backlog drained at 9,\\d{3} rows/s before it"),
        s.liveLimitedByEvidence());
  }

  @Test
  void aJobThatWroteLessThanWasOfferedFellBehindAndNamesTheRoundsLimit() throws Exception {
    RoundAnalysis a = RoundAnalysis.of(RECORDED.resolve("round-default"));
    RoundSummary s = RoundSummaryJson.of(a);
    assertEquals(s.limitedBy(), s.liveLimitedBy(), s.liveLimitedByEvidence());
    assertTrue(
        s.liveLimitedByEvidence().startsWith("fell behind: the jobs wrote "),
        s.liveLimitedByEvidence());
    assertTrue(
        s.liveLimitedByEvidence().contains("of the 7,025 msg/s the live publisher offered"),
        s.liveLimitedByEvidence());
  }

  @Test
  void aRoundWithoutLiveTrafficHasNoLiveVerdict() throws Exception {
    for (String round : new String[] {"round-backlog-1m", "round-fed-1m"}) {
      RoundSummary s = RoundSummaryJson.of(RoundAnalysis.of(RECORDED.resolve(round)));
      assertNull(s.liveLimitedBy(), round);
      assertNull(s.liveLimitedByEvidence(), round);
    }
  }
}
