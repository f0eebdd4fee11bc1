package dev.ingestbench.pubsubload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.verification.Finding;
import dev.ingestbench.verification.Verdict;
import dev.ingestbench.verification.VerificationPolicy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A load test's totals judged by the one policy: each verdict, and the exit code it gives. */
class LoadVerificationTest {

  private static Map<String, Object> totals(
      long missing, String drain, long errors, long subscriberErrors, long duplicates) {
    Map<String, Object> t = new LinkedHashMap<>();
    t.put("published", 10_000L);
    t.put("acked", 10_000L - errors);
    t.put("errors", errors);
    t.put("received", 10_000L - errors - missing + duplicates);
    t.put("distinct_received", 10_000L - errors - missing);
    t.put("duplicates", duplicates);
    t.put("subscriber_errors", subscriberErrors);
    t.put("missing", missing);
    t.put("drain", drain);
    return t;
  }

  private static int exit(List<Finding> findings) {
    Verdict v = new Verdict(new VerificationPolicy(0));
    findings.forEach(v::add);
    return v.exitCode();
  }

  @Test
  void everyAcknowledgedMessageReceivedPassesAndRedeliveriesAreAllowed() {
    List<Finding> findings = LoadVerification.judge(null, totals(0, "caught-up", 0, 0, 37));
    assertEquals(List.of(), findings);
    assertEquals(ExitCodes.OK, exit(findings));
  }

  @Test
  void messagesNeverReceivedAfterTheSubscriberStalledAreLost() {
    List<Finding> findings = LoadVerification.judge(null, totals(12, "stalled", 0, 0, 0));
    assertEquals(Finding.Kind.LOST, findings.get(0).kind());
    assertTrue(
        findings.get(0).line().startsWith("job subscriber: lost 12 of 10,000"),
        findings.get(0).line());
    assertEquals(ExitCodes.INCOMPLETE, exit(findings));
  }

  @Test
  void aSubscriberStillReceivingWhenTheDrainEndedIsBehindNotShownToHaveLost() {
    List<Finding> findings =
        LoadVerification.judge("threads=8", totals(330_742, "time-limit", 0, 0, 0));
    assertEquals(Finding.Kind.UNVERIFIED, findings.get(0).kind());
    assertTrue(
        findings.get(0).line().startsWith("stage threads=8, job subscriber: 330,742 acknowledged"),
        findings.get(0).line());
    assertEquals(ExitCodes.FAILED, exit(findings));
  }

  @Test
  void publishAndSubscriberErrorsFailTheTest() {
    List<Finding> findings = LoadVerification.judge(null, totals(0, "caught-up", 3, 2, 0));
    assertEquals(List.of("publisher", "subscriber"), findings.stream().map(Finding::job).toList());
    assertTrue(findings.stream().allMatch(f -> f.kind() == Finding.Kind.LOAD_TEST));
    assertTrue(
        findings
            .get(0)
            .message()
            .startsWith("3 of 10,000 published message(s) were not acknowledged"),
        findings.get(0).message());
    assertEquals(ExitCodes.INCOMPLETE, exit(findings));
  }

  @Test
  void aPublishOnlyTrialIsJudgedOnWhatPubsubAcknowledged() {
    assertEquals(
        List.of(),
        LoadVerification.judge("t", Map.of("published", 1_000L, "acked", 1_000L, "errors", 0L)));
    List<Finding> short1 =
        LoadVerification.judge("t", Map.of("published", 1_000L, "acked", 999L, "errors", 0L));
    assertEquals(Finding.Kind.LOAD_TEST, short1.get(0).kind());
  }
}
