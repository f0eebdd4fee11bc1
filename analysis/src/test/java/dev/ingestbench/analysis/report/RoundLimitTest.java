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
    assertTrue(limit.evidence().contains("round --feed"), limit.evidence());
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
  void thePubsubEmulatorIsTheLimitOnlyAtItsCeilingOnAMachineWithRoom() {
    MachineLoad below =
        new MachineLoad(
            2, 100, java.util.Map.of("consumer", 60.0, "emulator", 40.0, "bigquery-emulator", 5.0));
    assertTrue(
        RoundLimit.source(below, 0.3, 2, false, "").isEmpty(),
        "the Pub/Sub emulator at 0.4 cores is not at its ceiling");
    MachineLoad atCeiling =
        new MachineLoad(
            2, 100, java.util.Map.of("consumer", 50.0, "emulator", 85.0, "bigquery-emulator", 5.0));
    RoundLimit limit = RoundLimit.source(atCeiling, 0.25, 2, false, "").orElseThrow();
    assertEquals("source-emulator", limit.name());
    assertTrue(limit.evidence().contains("round --feed"), limit.evidence());
    assertFalse(
        RoundLimit.source(atCeiling, 0.25, 2, true, "").orElseThrow().evidence().contains("--feed"),
        "no advice to feed a round that was fed");
    MachineLoad saturated =
        new MachineLoad(
            2,
            100,
            java.util.Map.of("consumer", 100.0, "emulator", 85.0, "bigquery-emulator", 5.0));
    assertTrue(
        RoundLimit.source(saturated, 0.5, 2, false, "").isEmpty(),
        "on a saturated machine the emulator is starved, not at its ceiling");
    MachineLoad kafka = new MachineLoad(2, 100, java.util.Map.of("consumer", 50.0, "kafka", 90.0));
    assertTrue(
        RoundLimit.source(kafka, 0.25, 2, false, "").isEmpty(),
        "the Kafka broker's ceiling is not one core");
  }

  @Test
  void oneJobsDirectoryOfSeveralNamesNoLimitOfItsOwn() throws Exception {
    RoundSummary job =
        RoundSummaryJson.of(RoundAnalysis.of(RECORDED.resolve("round-kafka-two-jobs-fed/job-1")));
    assertEquals(null, job.limitedBy(), "the round's summary.json names it");
  }
}
