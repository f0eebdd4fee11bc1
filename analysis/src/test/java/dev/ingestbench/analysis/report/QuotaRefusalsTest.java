package dev.ingestbench.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ingestbench.analysis.diagnosis.Verdict;
import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.RunFiles;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which tier of the two-tier quota refused what and when, from a recorded round against it
 * (src/test/resources/recorded/round-two-tier-quota), and nothing of it where no quota refused.
 */
class QuotaRefusalsTest {
  private static final Path RECORDED = Path.of("src/test/resources/recorded");

  @Test
  void eachTierIsReportedWithItsRefusalsAndWhen() throws Exception {
    RoundAnalysis a = RoundAnalysis.of(RECORDED.resolve("round-two-tier-quota"));
    RoundSummary s = RoundSummaryJson.of(a);
    assertEquals(0, s.lost());
    List<RoundSummary.QuotaRefusals> tiers = s.quotaRefusals();
    assertEquals(List.of("regional", "cell"), tiers.stream().map(t -> t.tier()).toList());
    RoundSummary.QuotaRefusals regional = tiers.get(0);
    assertEquals(21, regional.refusedAppends());
    assertEquals(3, regional.refusalWindows());
    assertEquals(60.0, regional.windowSeconds());
    RoundSummary.RefusalWindow first = regional.windows().get(0);
    assertEquals(45.3, first.fromSeconds(), 1e-9, "seconds after the consumer started");
    assertEquals(67.0, first.refilledSeconds(), 1e-9);
    assertTrue(first.lastSeconds() <= first.refilledSeconds());
    assertEquals(40, tiers.get(1).refusedAppends());
    assertEquals(9, tiers.get(1).windows().size());

    assertEquals("quota", s.limitedBy());
    assertEquals(
        "the BigQuery emulator's throughput quota refused 61 appends while it refilled: regional"
            + " 21 in 3 window(s) of 60 s, cell 40 in 9 window(s) of 10 s",
        s.limitedByEvidence());
    List<String> verdicts = RoundDiagnosis.of(a).stream().map(Verdict::verdict).toList();
    assertTrue(
        verdicts.contains("Refused by the regional throughput quota while it refilled"),
        verdicts.toString());

    String md = RoundMarkdown.render(a);
    assertTrue(
        md.contains(
            "| Tier | Quota | Refused appends | Refused MB | Windows refusing | First refused, s |"
                + " Last refill, s |\n"
                + "|:---|:---|---:|---:|---:|---:|---:|\n"
                + "| regional | 1.00 MB/s per 60.0 s | 21 | 44.3 | 3 | 45.3 | 202.9 |\n"
                + "| cell | 2.00 MB/s per 10.0 s | 40 | 84.3 | 9 | 9.4 | 180.6 |\n"),
        md);
    assertTrue(md.contains("| regional | 45.3 | 66.6 | 67.0 | 7 |\n"), md);
    assertTrue(
        md.contains(
            "limits: regional quota of 1.00 MB/s per 60 s window over cell quota of 2.00 MB/s per"
                + " 10 s window (refusing appends while refilling)"),
        md);
  }

  /**
   * The same round as if only the cell had refused (reject mode's one tier): the verdict names the
   * short-term quota, never the regional one.
   */
  @Test
  void refusalsOfTheCellAloneAreTheShortTermQuotas(@TempDir Path dir) throws Exception {
    RecordedRounds.copy(RECORDED.resolve("round-two-tier-quota"), dir);
    ObjectMapper json = new ObjectMapper();
    Path file = dir.resolve(RunFiles.BIGQUERY_EMULATOR);
    ObjectNode status = (ObjectNode) json.readTree(file.toFile());
    ArrayNode tiers = (ArrayNode) status.get("quota_tiers");
    tiers.remove(0); // the regional tier
    status.put("rejected_appends", tiers.get(0).get("refused_appends").asLong());
    json.writeValue(file.toFile(), status);
    RoundAnalysis a = RoundAnalysis.of(dir);
    List<String> verdicts = RoundDiagnosis.of(a).stream().map(Verdict::verdict).toList();
    assertTrue(
        verdicts.contains("Refused by the short-term (cell) throughput quota while it refilled"),
        verdicts.toString());
    assertFalse(verdicts.stream().anyMatch(v -> v.contains("regional")), verdicts.toString());
    assertEquals(
        List.of("cell"),
        RoundSummaryJson.of(a).quotaRefusals().stream().map(t -> t.tier()).toList());
  }

  @Test
  void aRoundNoQuotaRefusedHasNoneOfIt() throws Exception {
    RoundAnalysis a = RoundAnalysis.of(RECORDED.resolve("round-default"));
    assertEquals(List.of(), RoundSummaryJson.of(a).quotaRefusals());
    String md = RoundMarkdown.render(a);
    assertFalse(md.contains("## Quota refusals"), md);
    assertFalse(
        RoundDiagnosis.of(a).stream().anyMatch(v -> v.verdict().startsWith("Refused by")),
        "no refusal verdict");
  }
}
