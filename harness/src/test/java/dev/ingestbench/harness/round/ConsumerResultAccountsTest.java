package dev.ingestbench.harness.round;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.verification.Finding;
import dev.ingestbench.verification.Verdict;
import dev.ingestbench.verification.VerificationPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A round's verdict from the files its processes wrote: a clean job passes; a row of wrong content,
 * a missing result and a consumer stopped at its timeout each fail, with the exit code the run
 * gives.
 */
class ConsumerResultAccountsTest {
  @TempDir Path out;

  private Verdict verdictOf(String consumerResult, boolean exactlyOnce) throws Exception {
    return verdictOf(consumerResult, exactlyOnce, null, null);
  }

  /**
   * @param fed what a feed gave the job (--feed), or null: the publishers' results (1,000) say
   * @param whyUnknown why what was published is not known, or null
   */
  private Verdict verdictOf(String consumerResult, boolean exactlyOnce, Long fed, String whyUnknown)
      throws Exception {
    Files.writeString(out.resolve(RunFiles.PUBLISHER_BACKLOG), "{\"published\": 900}");
    Files.writeString(out.resolve(RunFiles.PUBLISHER_LIVE), "{\"published\": 100}");
    Path job = Files.createDirectories(out.resolve("job-1"));
    if (consumerResult != null) {
      Files.writeString(job.resolve(RunFiles.CONSUMER_RESULT), consumerResult);
    }
    Verdict verdict = new Verdict(new VerificationPolicy(0));
    verdict.judge(
        ConsumerResultAccounts.read(
            out,
            fed,
            whyUnknown,
            job,
            "consumer-1",
            exactlyOnce,
            300,
            out.resolve("consumer-1.log")));
    return verdict;
  }

  private static String result(long mismatched, String stopReason) {
    return result(1000, mismatched, stopReason);
  }

  private static String result(long accounted, long mismatched, String stopReason) {
    return "{\"rows_written\": "
        + accounted
        + ", \"distinct_message_ids\": "
        + accounted
        + ", \"accounted_for\": "
        + accounted
        + ", \"mismatched_rows\": "
        + mismatched
        + ", \"mismatches\": [\"event_index 7: ride_status is 'x', expected 'pickup'\"], \"stop_reason\": \""
        + stopReason
        + "\"}";
  }

  @Test
  void everyMessageOnceWithItsContentPasses() throws Exception {
    Verdict v = verdictOf(result(0, "all 1000 messages written or dead-lettered"), true);
    assertEquals(ExitCodes.OK, v.exitCode(), v.findings().toString());
  }

  @Test
  void aRowOfWrongContentFailsTheRound() throws Exception {
    Verdict v = verdictOf(result(2, "all 1000 messages written or dead-lettered"), false);
    assertEquals(ExitCodes.INCOMPLETE, v.exitCode());
    assertEquals(Finding.Kind.MISMATCHED, v.findings().get(0).kind());
    assertTrue(
        v.findings()
            .get(0)
            .line()
            .contains(
                "2 row(s) do not hold what their event must produce, e.g." + " event_index 7"),
        v.findings().get(0).line());
  }

  @Test
  void aConsumerWithoutAResultOrStoppedAtItsTimeoutIsNotVerified() throws Exception {
    Verdict missing = verdictOf(null, true);
    assertEquals(ExitCodes.FAILED, missing.exitCode());
    assertTrue(
        missing.findings().get(0).line().contains("its consumer wrote no consumer_result.json"));
    Verdict timeout =
        verdictOf(result(0, "timeout after 300 s; missing event indexes: 990-999"), true);
    assertEquals(ExitCodes.FAILED, timeout.exitCode(), "not a measured loss: exit 3");
    assertTrue(timeout.findings().get(0).line().contains("missing event indexes: 990-999"));
    Verdict ended =
        verdictOf(result(990, 0, "pipeline ended: DONE; missing event indexes: 990-999"), true);
    assertEquals(
        ExitCodes.FAILED, ended.exitCode(), "a job that ended by itself left them: exit 3");
    assertTrue(ended.findings().get(0).line().contains("its pipeline ended by itself"));
  }

  /** --feed: the job is judged on what the feed gave it, not on the publishers' files. */
  @Test
  void aFedJobIsJudgedOnWhatTheFeedGaveIt() throws Exception {
    String all = result(0, "all 1000 messages written or dead-lettered");
    assertEquals(ExitCodes.OK, verdictOf(all, true, 1_000L, null).exitCode());
    Verdict short200 = verdictOf(all, true, 1_200L, null);
    assertEquals(ExitCodes.INCOMPLETE, short200.exitCode(), "200 fed and never accounted for");
    assertEquals(Finding.Kind.LOST, short200.findings().get(0).kind());
    Verdict failedFeed = verdictOf(all, true, null, "feeding its topic failed (refused)");
    assertEquals(ExitCodes.FAILED, failedFeed.exitCode(), "not known what was fed: exit 3");
    assertTrue(
        failedFeed.findings().get(0).line().contains("feeding its topic failed"),
        failedFeed.findings().get(0).line());
  }

  @Test
  void aPipelineThatEndedByItselfAfterAccountingForEverythingIsVerified() throws Exception {
    Verdict v = verdictOf(result(1000, 0, "pipeline ended: DONE"), true);
    assertEquals(ExitCodes.OK, v.exitCode(), v.findings().toString());
  }
}
