package dev.ingestbench.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.analysis.diagnosis.Diagnoser;
import dev.ingestbench.analysis.phases.PhaseSpec;
import dev.ingestbench.analysis.source.TimelineCsv;
import dev.ingestbench.analysis.source.VcpuSecondsCsv;
import dev.ingestbench.analysis.stats.Comparison;
import dev.ingestbench.analysis.stats.PhaseSummary;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The published round 3 table: the analysis must reproduce what its raw data implies. */
class TimelineAnalysisTest {
  private static final Path REF = Path.of("src", "test", "resources", "reference");
  private static final Diagnoser.Topology UNKNOWN = new Diagnoser.Topology(0, 0, 0, false, 0);

  private static TimelineAnalysis analyse(List<String> phases) throws Exception {
    return TimelineAnalysis.of(
        TimelineCsv.read(REF.resolve("round3_write_api_timeline.csv")),
        VcpuSecondsCsv.read(REF.resolve("round3_vcpu_seconds.csv")),
        12,
        phases.stream().map(PhaseSpec::parse).toList(),
        UNKNOWN);
  }

  @Test
  void givenPhasesReproduceTheFiguresTheRawTableImplies() throws Exception {
    TimelineAnalysis a = analyse(List.of("A1=10:56..11:01", "A2=11:13..11:22"));
    PhaseSummary a1 = a.phases().get(0);
    PhaseSummary a2 = a.phases().get(1);
    assertEquals(6, a1.phase().buckets());
    assertEquals(
        20_222_158.0 / 360, a1.rowsPerSecond().mean(), 1e-6, "A1 rows 10:56-11:01 over 6 minutes");
    assertEquals(32_926_616.0 / 600, a2.rowsPerSecond().mean(), 1e-6, "A2: 54,878 as published");
    assertEquals(4_573.1, a2.rowsPerSecondPerVcpu(), 0.1, "per-vCPU rows/s as published for A2");
    assertEquals(1.0, a1.cpuUtilisation(), 1e-9, "720 vCPU-s per minute on 12 vCPUs");
    assertEquals(9, a2.cpuSamples(), "the vCPU series ends at 11:21");
  }

  @Test
  void welchTestFindsNoSignificantDifferenceBetweenTheWriteMethods() throws Exception {
    Comparison c = analyse(List.of("A1=10:56..11:01", "A2=11:13..11:22")).comparisons().get(0);
    assertEquals(-2.31, c.differencePct(), 0.01);
    assertFalse(c.significant());
    assertTrue(c.pValue() > 0.2 && c.pValue() < 0.3, "p = " + c.pValue());
    assertTrue(c.ci95LowPct() < 0 && c.ci95HighPct() > 0, "the interval contains zero");
  }

  @Test
  void aPublishedFigureThatItsOwnTableDoesNotImplyIsFlagged() throws Exception {
    TimelineAnalysis a = analyse(List.of("A1=10:56..11:01", "A2=11:13..11:22"));
    List<Object> checks = TimelineReportJson.claimChecks(a, Map.of("A1.rows_per_second", 55_791.0));
    Map<?, ?> check = (Map<?, ?>) checks.get(0);
    assertEquals(false, check.get("matches"));
    assertEquals(true, check.get("within_ci95"));
    assertTrue(
        TimelineReport.markdown(a, Map.of("A2.rows_per_second", 54_878.0))
            .contains("| A2.rows_per_second | 54,878.00 | 54,877.69 | +0.00% | matches |"));
  }

  @Test
  void bothWindowsAreCpuBound() throws Exception {
    TimelineAnalysis a = analyse(List.of("A1=10:56..11:01", "A2=11:13..11:22"));
    assertEquals(
        List.of("CPU-bound in A1", "CPU-bound in A2"),
        a.diagnosis().stream().map(v -> v.verdict()).toList());
  }

  @Test
  void withoutPhasesTheTwoJobWindowsAndTheirSteadyStatesAreDetected() throws Exception {
    TimelineAnalysis a = analyse(List.of());
    assertEquals(
        List.of("W1 steady", "W2 steady"), a.phases().stream().map(p -> p.phase().name()).toList());
    assertEquals(
        "2026-02-12T10:55:00Z",
        a.phases().get(0).phase().start().toString(),
        "W1 steady from 10:55 (3,093,657 rows ≥ 80% of p90)");
    assertEquals(
        "2026-02-12T11:02:00Z",
        a.phases().get(0).phase().end().toString(),
        "the cancelled minute 11:02 is drain");
    assertEquals("2026-02-12T11:13:00Z", a.phases().get(1).phase().start().toString());
  }

  @Test
  @SuppressWarnings("unchecked")
  void reportJsonGivesEachPhasesKindAndWritersAndEachVerdictsKind() throws Exception {
    Map<String, Object> json = TimelineReportJson.of(analyse(List.of()), Map.of());
    List<Map<String, Object>> phases = (List<Map<String, Object>>) json.get("phases");
    assertEquals(List.of("steady", "steady"), phases.stream().map(p -> p.get("kind")).toList());
    assertEquals(
        List.of(1, 1),
        phases.stream().map(p -> p.get("writers")).toList(),
        "one writer each: two windows");
    List<Map<String, Object>> verdicts = (List<Map<String, Object>>) json.get("verdicts");
    assertEquals(
        List.of("cpu-bound", "cpu-bound"), verdicts.stream().map(v -> v.get("kind")).toList());
    assertEquals(
        List.of("W1 steady", "W2 steady"), verdicts.stream().map(v -> v.get("phase")).toList());
    assertEquals(
        ((List<?>) json.get("diagnosis")).size(),
        verdicts.size(),
        "diagnosis keeps its keys; verdicts add kinds");
    List<Map<String, Object>> segments = (List<Map<String, Object>>) json.get("segments");
    assertEquals(
        List.of("ramp-up", "steady", "drain", "ramp-up", "steady"),
        segments.stream().map(p -> p.get("kind")).toList());
    List<Map<String, Object>> changes = (List<Map<String, Object>>) json.get("level_changes");
    assertEquals(
        List.of("ramp-up", "drain", "gap", "ramp-up"),
        changes.stream().map(c -> c.get("kind")).toList());
    assertEquals(
        "2026-02-12T11:12:00Z", changes.get(2).get("at"), "W2 begins after the empty minutes");
    assertTrue(((String) changes.get(2).get("evidence")).startsWith("9 empty minutes"));
  }

  @Test
  void aPhaseOutsideTheTimelineIsNamedWithTheTimelinesSpan() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> analyse(List.of("X=09:00..09:05")));
    assertTrue(
        e.getMessage().contains("--phase X") && e.getMessage().contains("covers no minute"),
        e.getMessage());
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> PhaseSpec.parse("A1=10:56-11:01"))
            .getMessage()
            .contains("NAME=HH:MM..HH:MM"));
  }

  @Test
  void twoJobsGivingLessThanEightyPercentMoreIsPerTableContention() throws Exception {
    // Treat the two windows as one job and then two: 54,878 / 56,173 = 0.98x the rate for 2x the
    // jobs,
    // i.e. each job at 0.49x the rate one job had alone.
    TimelineAnalysis a =
        TimelineAnalysis.of(
            TimelineCsv.read(REF.resolve("round3_write_api_timeline.csv")),
            Map.of(),
            0,
            List.of(PhaseSpec.parse("one=10:56..11:01"), PhaseSpec.parse("two=11:13..11:22")),
            new Diagnoser.Topology(0, 0, 0, false, 0, Map.of("one", 1, "two", 2)));
    assertTrue(
        a.diagnosis().stream()
            .anyMatch(
                v ->
                    v.verdict().equals("Per-table contention (sub-linear scaling)")
                        && v.evidence().contains("the per-writer rate ×0.49")
                        && v.evidence().contains("49% of proportional")),
        a.diagnosis().toString());
  }

  @Test
  void connectionEstimateAndSawtoothAreDiagnosed() throws Exception {
    TimelineAnalysis a =
        TimelineAnalysis.of(
            TimelineCsv.read(REF.resolve("round3_write_api_timeline.csv")),
            Map.of(),
            0,
            List.of(PhaseSpec.parse("A1=10:56..11:01")),
            new Diagnoser.Topology(200, 5, 2, false, 0));
    assertTrue(
        a.diagnosis().stream()
            .anyMatch(
                v ->
                    v.verdict().startsWith("Near the 1,000 concurrent-connection limit")
                        && v.evidence().contains("200 tables × 5 workers × 2 jobs = 2,000")),
        a.diagnosis().toString());
  }
}
