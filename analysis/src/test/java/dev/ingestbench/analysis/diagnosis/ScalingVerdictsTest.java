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
import org.junit.jupiter.api.Test;

/**
 * The published rounds' design without --phase: A alone, A and B, B alone in one window of a
 * per-minute WRITE_API_TIMELINE with the published tables' noise (3%). The analysis finds the three
 * levels, estimates 1, 2, 1 writers and says whether B joining and A leaving scaled linearly.
 */
class ScalingVerdictsTest {
  private static final Instant T0 = Instant.parse("2026-02-12T10:00:00Z");

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
      rows.add(new TimelineRow(T0.plusSeconds(60L * i), "p", "d", "taxi_rides", "COMMITTED", "", n / 500, n, n * 500));
    }
    return rows;
  }

  private static TimelineAnalysis analyse(List<TimelineRow> rows) {
    return TimelineAnalysis.of(rows, Map.of(), 0, List.of(), new Diagnoser.Topology(1, 3, 2, true, 0));
  }

  @Test
  void bJoiningAndALeavingScaledLinearly() {
    for (long seed = 0; seed < 20; seed++) {
      TimelineAnalysis a = analyse(round(seed, 6_000_000, 12_000_000, 6_000_000));
      assertEquals(Map.of("W1 steady 1", 1, "W1 steady 2", 2, "W1 steady 3", 1), a.writers(), "seed " + seed);
      List<String> kinds = a.diagnosis().stream().map(Verdict::kind).toList();
      assertEquals(List.of("linear-scaling", "linear-scaling", "no-bottleneck"), kinds, "seed " + seed + ": " + a.diagnosis());
      assertTrue(a.diagnosis().get(0).verdict().startsWith("A writer joining"), a.diagnosis().toString());
      assertTrue(a.diagnosis().get(1).verdict().startsWith("A writer leaving"), a.diagnosis().toString());
    }
  }

  @Test
  void bJoiningForOnlyAThirdMoreIsContention() {
    for (long seed = 0; seed < 20; seed++) {
      TimelineAnalysis a = analyse(round(seed, 6_000_000, 8_000_000, 6_000_000));
      assertEquals(Map.of("W1 steady 1", 1, "W1 steady 2", 2, "W1 steady 3", 1), a.writers(), "seed " + seed);
      Verdict joined = a.diagnosis().get(0);
      assertEquals("contention", joined.kind(), a.diagnosis().toString());
      assertEquals("W1 steady 2", joined.phase());
      assertTrue(joined.evidence().contains("for 2.00× the writers (estimated from the level ratios)")
          && joined.evidence().contains("% of proportional"), joined.evidence());
    }
  }

  @Test
  void jobsInOverridesTheEstimate() {
    TimelineAnalysis a = TimelineAnalysis.of(round(1, 6_000_000, 12_000_000, 6_000_000), Map.of(), 0, List.of(),
        new Diagnoser.Topology(1, 3, 3, true, 0, Map.of("W1 steady 1", 1, "W1 steady 2", 3, "W1 steady 3", 1)));
    assertEquals(3, a.writers().get("W1 steady 2"));
    assertEquals("contention", a.diagnosis().get(0).kind(), "2x the rate for 3x the writers: " + a.diagnosis());
    assertTrue(a.diagnosis().get(0).evidence().contains("(--jobs-in)"), a.diagnosis().get(0).evidence());
  }
}
