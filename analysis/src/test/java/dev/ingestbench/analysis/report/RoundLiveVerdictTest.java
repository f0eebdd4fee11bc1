package dev.ingestbench.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.RoundSummary;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

  /**
   * The default round's 10 s of live traffic, judged by its latency: the same in both halves. Its
   * rate over a window of a few seconds could not tell (the rows became visible in flushes).
   */
  @Test
  void aLatencyThatDidNotGrowBetweenTheHalvesKeptUp() throws Exception {
    RoundSummary s =
        RoundSummaryJson.of(RoundAnalysis.of(RECORDED.resolve("round-live-halves-kept-up")));
    assertEquals("kept-up", s.liveLimitedBy(), s.liveLimitedByEvidence());
    assertTrue(
        s.liveLimitedByEvidence()
            .startsWith(
                "the live latency (intended send -> visible, p50) was 1,343 ms for the messages of"
                    + " its first 4 s and 1,255 ms for those of its last 4 s, -88 ms; a job writing"
                    + " 95% of the 9,082 msg/s offered would have added 263 ms over the 5 s between"
                    + " them; headroom 3.5x"),
        s.liveLimitedByEvidence());
  }

  @Test
  void aLatencyThatGrewBetweenTheHalvesFellBehindAndNamesTheRoundsLimit() throws Exception {
    RoundSummary s =
        RoundSummaryJson.of(RoundAnalysis.of(RECORDED.resolve("round-live-halves-behind")));
    assertEquals(s.limitedBy(), s.liveLimitedBy(), s.liveLimitedByEvidence());
    assertTrue(
        s.liveLimitedByEvidence()
            .startsWith(
                "fell behind: the live latency (intended send -> visible, p50) was 1,991 ms for the"
                    + " messages of its first 1 s and 3,215 ms for those of its last 1 s, +1,224"
                    + " ms"),
        s.liveLimitedByEvidence());
    assertTrue(
        s.liveLimitedByEvidence().contains("; limited as the round was: "),
        s.liveLimitedByEvidence());
  }

  /** A round recorded before the halves were: judged by its rate, and 10 s is too short for it. */
  @Test
  void theDefaultRoundsTenSecondsOfLiveTrafficAreTooShortToJudge() throws Exception {
    RoundSummary s = RoundSummaryJson.of(RoundAnalysis.of(RECORDED.resolve("round-default-lumps")));
    assertEquals("unknown", s.liveLimitedBy(), s.liveLimitedByEvidence());
    assertTrue(
        s.liveLimitedByEvidence().startsWith("the live publisher ran 10 s: too briefly"),
        s.liveLimitedByEvidence());
  }

  /**
   * The same round's live phase read as 12 s: its 6 s window holds two flushes of 6,852 rows in
   * some seconds and one in others, 91% of what was offered, but 96% a second shorter at either
   * end. Judged on the 6 s alone it "fell behind".
   */
  @Test
  void aWindowWhoseVerdictTurnsOnOneFlushIsNotJudged(@TempDir Path tmp) throws Exception {
    Path round = RecordedRounds.copy(RECORDED.resolve("round-default-lumps"), tmp.resolve("r"));
    Path live = round.resolve("publisher_live.json");
    Files.writeString(
        live, Files.readString(live).replace("\"seconds\" : 10.011", "\"seconds\" : 12.0"));
    RoundSummary s = RoundSummaryJson.of(RoundAnalysis.of(round));
    assertEquals("unknown", s.liveLimitedBy(), s.liveLimitedByEvidence());
    assertTrue(
        s.liveLimitedByEvidence()
            .startsWith(
                "the jobs wrote 9,136 rows/s of the 9,989 msg/s the live publisher offered over"
                    + " 6 s of its 12 s, but 9,593 and 9,593 with the window a second shorter"),
        s.liveLimitedByEvidence());
    assertTrue(s.liveLimitedByEvidence().contains("visible in lumps"), s.liveLimitedByEvidence());
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
