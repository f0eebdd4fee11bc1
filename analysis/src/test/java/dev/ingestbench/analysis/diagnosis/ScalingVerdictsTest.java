package dev.ingestbench.analysis.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.analysis.model.TimelineRow;
import dev.ingestbench.analysis.report.TimelineAnalysis;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The published rounds' design without --phase: A alone, A and B, B alone in one window of a
 * per-minute WRITE_API_TIMELINE with the published tables' noise (3%). The analysis finds the three
 * levels; how many writers each had comes from evidence, and the scaling is judged on the rate per
 * writer, one verdict per change, never from writers it estimated from those same levels.
 */
class ScalingVerdictsTest {
  private static final Instant T0 = Instant.parse("2026-02-12T10:00:00Z");
  private static final Map<String, Integer> ONE_TWO_ONE =
      Map.of("W1 steady 1", 1, "W1 steady 2", 2, "W1 steady 3", 1);

  /**
   * Rows per minute: a alone for 8 minutes, both for 8, b alone for 8 (and a first partial minute).
   */
  private static List<TimelineRow> round(long seed, double a, double ab, double b) {
    Random random = new Random(seed);
    List<TimelineRow> rows = new ArrayList<>();
    double[] levels = new double[25];
    levels[0] = a * 0.3; // a job starting within its first minute
    for (int i = 1; i < 25; i++) {
      levels[i] = i <= 8 ? a : i <= 16 ? ab : b;
    }
    for (int i = 0; i < levels.length; i++) {
      long n = Math.round(levels[i] * (1 + 0.03 * random.nextGaussian()));
      rows.add(
          new TimelineRow(
              T0.plusSeconds(60L * i),
              "p",
              "d",
              "taxi_rides",
              "COMMITTED",
              "",
              n / 500,
              n,
              n * 500));
    }
    return rows;
  }

  private static TimelineAnalysis analyse(List<TimelineRow> rows, Map<String, Integer> jobsIn) {
    return TimelineAnalysis.of(
        rows, Map.of(), 0, List.of(), new Diagnoser.Topology(1, 3, 2, true, 0, jobsIn));
  }

  private static List<String> kinds(TimelineAnalysis a) {
    return a.diagnosis().stream().map(Verdict::kind).toList();
  }

  @Test
  void writersEstimatedFromTheLevelsDoNotJudgeThoseLevels() {
    for (long seed = 0; seed < 20; seed++) {
      for (double both : new double[] {12_000_000, 8_000_000}) {
        TimelineAnalysis a = analyse(round(seed, 6_000_000, both, 6_000_000), Map.of());
        assertEquals(ONE_TWO_ONE, a.writers(), "seed " + seed);
        assertEquals(WriterEvidence.ESTIMATED, a.writerSources().get("W1 steady 2"));
        assertEquals(
            List.of("scaling-not-judged", "no-bottleneck"),
            kinds(a),
            "seed " + seed + ": " + a.diagnosis());
        assertTrue(
            a.diagnosis().get(0).evidence().contains("would be circular; give --jobs-in PHASE=N"),
            a.diagnosis().get(0).evidence());
      }
    }
  }

  @Test
  void bJoiningAndALeavingScaledLinearlyPerWriter() {
    for (long seed = 0; seed < 20; seed++) {
      TimelineAnalysis a = analyse(round(seed, 6_000_000, 12_000_000, 6_000_000), ONE_TWO_ONE);
      assertEquals(
          List.of("linear-scaling", "linear-scaling", "no-bottleneck"),
          kinds(a),
          "seed " + seed + ": " + a.diagnosis());
      assertTrue(
          a.diagnosis().get(0).verdict().startsWith("A writer joining"), a.diagnosis().toString());
      assertTrue(
          a.diagnosis().get(1).verdict().startsWith("A writer leaving"), a.diagnosis().toString());
      assertTrue(
          a.diagnosis().get(0).evidence().contains("1 writer (--jobs-in)"),
          a.diagnosis().get(0).evidence());
    }
  }

  @Test
  void bJoiningForOnlyAThirdMoreIsContentionAndALeavingIsNotItsContradiction() {
    for (long seed = 0; seed < 20; seed++) {
      TimelineAnalysis a = analyse(round(seed, 6_000_000, 8_000_000, 6_000_000), ONE_TWO_ONE);
      assertEquals(
          List.of("contention", "remaining-writers-faster"),
          kinds(a),
          "seed " + seed + ": " + a.diagnosis());
      Verdict joined = a.diagnosis().get(0);
      assertEquals("W1 steady 2", joined.phase());
      assertTrue(
          joined.evidence().matches(".*the per-writer rate ×0\\.6\\d.*6\\d% of proportional.*"),
          joined.evidence());
      assertTrue(
          a.diagnosis().get(1).verdict().contains("not contention"), a.diagnosis().toString());
    }
  }

  @Test
  void jobsInGivesTheWritersAndTheirSource() {
    TimelineAnalysis a =
        analyse(
            round(1, 6_000_000, 12_000_000, 6_000_000),
            Map.of("W1 steady 1", 1, "W1 steady 2", 3, "W1 steady 3", 1));
    assertEquals(3, a.writers().get("W1 steady 2"));
    assertEquals(WriterEvidence.GIVEN, a.writerSources().get("W1 steady 2"));
    assertEquals(
        "contention",
        a.diagnosis().get(0).kind(),
        "2x the rate for 3x the writers: " + a.diagnosis());
  }

  /** A local round's concurrent_connections.csv, per job: who had streams open when. */
  @Test
  void aConnectionsSeriesWithAJobColumnGivesTheWriters() {
    Map<String, Map<Instant, Double>> open = new TreeMap<>();
    for (int i = 0; i < 25; i++) {
      if (i <= 16) {
        open.computeIfAbsent("a", k -> new TreeMap<>()).put(T0.plusSeconds(60L * i), 10.0);
      }
      if (i >= 9) {
        open.computeIfAbsent("b", k -> new TreeMap<>()).put(T0.plusSeconds(60L * i), 10.0);
      }
    }
    TimelineAnalysis a =
        TimelineAnalysis.of(
            round(3, 6_000_000, 12_000_000, 6_000_000),
            Map.of(),
            0,
            List.of(),
            new Diagnoser.Topology(1, 3, 2, true, 0, Map.of())
                .withJobActivity(open, "connections series"));
    assertEquals(ONE_TWO_ONE, a.writers());
    assertEquals("connections series", a.writerSources().get("W1 steady 1"));
    assertEquals(
        List.of("linear-scaling", "linear-scaling", "no-bottleneck"),
        kinds(a),
        a.diagnosis().toString());
  }
}
