package dev.ingestbench.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ingestbench.analysis.diagnosis.Diagnoser;
import dev.ingestbench.analysis.phases.PhaseSpec;
import dev.ingestbench.analysis.source.TimelineCsv;
import dev.ingestbench.analysis.source.VcpuSecondsCsv;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The whole Markdown report of the published round 3, compared with a reviewed copy. A change in
 * any number, table or wording shows up here; when the change is intended, regenerate the copy with
 * {@code -Dgolden.update=true} and review the diff.
 */
class GoldenReportTest {
  private static final Path REF = Path.of("src", "test", "resources", "reference");
  private static final Path GOLDEN =
      Path.of("src", "test", "resources", "golden", "round3_report.md");

  @Test
  void round3ReportMatchesTheReviewedCopy() throws Exception {
    TimelineAnalysis a =
        TimelineAnalysis.of(
            TimelineCsv.read(REF.resolve("round3_write_api_timeline.csv")),
            VcpuSecondsCsv.read(REF.resolve("round3_vcpu_seconds.csv")),
            12,
            List.of(PhaseSpec.parse("A1=10:56..11:01"), PhaseSpec.parse("A2=11:13..11:22")),
            new Diagnoser.Topology(0, 0, 0, false, 0));
    Map<String, Double> claims = new LinkedHashMap<>();
    claims.put("A1.rows_per_second", 55_791.0);
    claims.put("A2.rows_per_second", 54_878.0);
    claims.put("A1.mb_per_second", 31.3);
    claims.put("A2.mb_per_second", 30.8);
    String report = TimelineReport.markdown(a, claims);
    if (Boolean.getBoolean("golden.update")) {
      Files.writeString(GOLDEN, report, StandardCharsets.UTF_8);
    }
    assertEquals(Files.readString(GOLDEN, StandardCharsets.UTF_8), report);
  }
}
