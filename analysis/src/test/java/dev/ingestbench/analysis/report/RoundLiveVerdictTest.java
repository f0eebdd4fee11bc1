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
                "the live latency (publish -> visible, p50) was 1,223 ms for the messages meant to"
                    + " be sent 1-4 s into the live phase and 1,127 ms for those of 5-8 s, -96 ms; a"
                    + " job writing 95% of the 9,985 msg/s offered would have added 211 ms over the"
                    + " 4 s between them; headroom 3.0x"),
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
                "fell behind: the live latency (publish -> visible, p50) was 3,135 ms for the"
                    + " messages meant to be sent 2-5 s into the live phase and 4,447 ms for those of"
                    + " 6-9 s, +1,312 ms"),
        s.liveLimitedByEvidence());
    assertTrue(
        s.liveLimitedByEvidence().contains("; limited as the round was: "),
        s.liveLimitedByEvidence());
  }

  /** Halves of a second or two are not judged by their latency: a flush more or less moves it. */
  @Test
  void halvesTooShortToJudgeLeaveTheVerdictToTheRate(@TempDir Path tmp) throws Exception {
    Path round =
        RecordedRounds.copy(RECORDED.resolve("round-live-halves-kept-up"), tmp.resolve("r"));
    Path halves = round.resolve("live_halves.json");
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    com.fasterxml.jackson.databind.node.ObjectNode tree =
        (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(halves.toFile());
    for (com.fasterxml.jackson.databind.JsonNode step : tree.get("steps")) {
      for (com.fasterxml.jackson.databind.JsonNode l : step.get("latency_by_job")) {
        ((com.fasterxml.jackson.databind.node.ObjectNode) l)
            .put("to_epoch_ms", l.get("from_epoch_ms").asLong() + 2000);
      }
    }
    json.writeValue(halves.toFile(), tree);
    RoundSummary s = RoundSummaryJson.of(RoundAnalysis.of(round));
    assertEquals("unknown", s.liveLimitedBy(), s.liveLimitedByEvidence());
    assertTrue(
        s.liveLimitedByEvidence().startsWith("the live publisher ran 10 s: too briefly"),
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
