package dev.ingestbench.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.analysis.diagnosis.Verdict;
import dev.ingestbench.contracts.RoundSummary;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every round names what limited it, from recorded rounds on 2 vCPUs (src/test/resources/recorded):
 * each limit where it showed, and not where another did.
 */
class RoundLimitTest {
  private static final Path RECORDED = Path.of("src/test/resources/recorded");

  private static RoundAnalysis round(String name) throws Exception {
    return RoundAnalysis.of(RECORDED.resolve(name));
  }

  @Test
  void aBacklogHeldAtOnceIsLimitedByThePubsubEmulatorNotThePipeline() throws Exception {
    RoundAnalysis a = round("round-backlog-1m");
    RoundLimit limit = RoundLimit.of(a);
    assertEquals("source-emulator", limit.name(), limit.evidence());
    assertTrue(limit.evidence().startsWith("the Pub/Sub emulator used 0.8"), limit.evidence());
    assertTrue(limit.evidence().contains("run with --feed"), limit.evidence());
    List<String> verdicts = RoundDiagnosis.of(a).stream().map(Verdict::verdict).toList();
    assertEquals(List.of("Source-bound: the Pub/Sub emulator"), verdicts);
    RoundSummary s = RoundSummaryJson.of(a);
    assertEquals("source-emulator", s.limitedBy());
    assertEquals(limit.evidence(), s.limitedByEvidence());
  }

  @Test
  void theSameBacklogFedIsLimitedByTheMachineAndTheSourceDoesNotFire() throws Exception {
    RoundAnalysis a = round("round-fed-1m");
    RoundLimit limit = RoundLimit.of(a);
    assertEquals("machine-cpu", limit.name(), limit.evidence());
    assertTrue(limit.evidence().contains("the harness used"), limit.evidence());
    assertFalse(
        RoundDiagnosis.of(a).stream().anyMatch(v -> v.verdict().startsWith("Source-bound")),
        "the Pub/Sub emulator was well below a core");
  }

  @Test
  void consumersAtTheirCpuAreTheLimitBeforeTheMachineTheyFill() throws Exception {
    RoundLimit limit = RoundLimit.of(round("round-kafka-two-jobs-fed"));
    assertEquals("consumer-cpu", limit.name(), limit.evidence());
    assertTrue(limit.evidence().startsWith("the consumers used 9"), limit.evidence());
  }

  @Test
  void theDefaultRoundIsMachineBoundNotConsumerOrSourceBound() throws Exception {
    RoundLimit limit = RoundLimit.of(round("round-default"));
    assertEquals("machine-cpu", limit.name(), limit.evidence());
  }

  @Test
  void aMachineBelowItsCeilingWithNoOtherSignalSaysWhatWasNotRecorded() {
    MachineLoad quiet =
        new MachineLoad(
            2, 100, java.util.Map.of("consumer", 60.0, "emulator", 40.0, "bigquery-emulator", 5.0));
    assertTrue(
        RoundLimit.source(null, quiet, "").isEmpty(),
        "the Pub/Sub emulator at 0.4 cores is not at its ceiling");
  }
}
