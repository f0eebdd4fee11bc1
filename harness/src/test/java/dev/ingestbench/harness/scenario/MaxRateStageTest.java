package dev.ingestbench.harness.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.MaxRateResult;
import dev.ingestbench.verification.Finding;
import dev.ingestbench.verification.JobCounts;
import dev.ingestbench.verification.Verdict;
import dev.ingestbench.verification.VerificationPolicy;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What fails a find_max_rate stage: its round's verification, and a search that found nothing. */
class MaxRateStageTest {
  private static MaxRateResult result(Double answer) {
    return new MaxRateResult(
        "run",
        answer,
        "consumer-cpu",
        "evidence",
        100_000,
        10_000,
        5,
        20,
        0.95,
        2,
        1,
        answer == null ? 0 : 1,
        null,
        null,
        null,
        answer == null ? 0 : answer,
        8_000.0,
        List.of());
  }

  private static Verdict judged(long published, long accounted, long duplicates) {
    Verdict v = new Verdict(new VerificationPolicy(0));
    v.judge(
        new JobCounts(
            null,
            "consumer",
            true,
            published,
            accounted + duplicates,
            accounted,
            duplicates,
            0,
            accounted,
            null,
            null));
    return v;
  }

  @Test
  void aVerifiedSearchThatFoundARatePasses() {
    assertTrue(
        MaxRateStage.findings("a-max", "a", judged(1_000, 1_000, 0), result(8_000.0), Path.of("r"))
            .isEmpty());
  }

  @Test
  void aLostMessageOrAnExactlyOnceDuplicateInTheSearchFailsTheStageNamingIt() {
    List<Finding> lost =
        MaxRateStage.findings("a-max", "a", judged(1_000, 999, 0), result(8_000.0), Path.of("r"));
    assertEquals(1, lost.size(), lost.toString());
    assertEquals(Finding.Kind.LOST, lost.get(0).kind());
    assertEquals("a-max", lost.get(0).stage());
    assertEquals("a", lost.get(0).job());
    List<Finding> duplicated =
        MaxRateStage.findings("a-max", "a", judged(1_000, 1_000, 3), result(8_000.0), Path.of("r"));
    assertEquals(Finding.Kind.DUPLICATES, duplicated.get(0).kind(), duplicated.toString());
  }

  @Test
  void aSearchThatSustainedNoRateFailsTheStageWithItsBracket() {
    List<Finding> none =
        MaxRateStage.findings("a-max", "a", judged(1_000, 1_000, 0), result(null), Path.of("r"));
    assertEquals(1, none.size());
    assertEquals(Finding.Kind.STAGE_PURPOSE, none.get(0).kind());
    assertTrue(none.get(0).message().contains("0 to 8,000 msg/s"), none.get(0).message());
  }
}
