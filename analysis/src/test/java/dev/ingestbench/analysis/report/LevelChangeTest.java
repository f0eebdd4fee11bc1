package dev.ingestbench.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.model.Timeline;
import dev.ingestbench.analysis.phases.JobWindows;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The boundaries between detected phases are reported with their evidence, transients included. */
class LevelChangeTest {
  private static final Instant T0 = Instant.parse("2026-02-12T10:00:00Z");

  /** Rows per minute with 3% noise; 0 stays 0. */
  private static Timeline minutes(long seed, double... rowsPerMinute) {
    Random random = new Random(seed);
    List<Bucket> buckets = new ArrayList<>();
    for (int i = 0; i < rowsPerMinute.length; i++) {
      long rows = Math.round(rowsPerMinute[i] * (1 + 0.03 * random.nextGaussian()));
      buckets.add(new Bucket(T0.plusSeconds(60L * i), 60, rows, rows * 500, rows / 500, 0));
    }
    return Timeline.ofBuckets(buckets, 60);
  }

  @Test
  void aRoundWithAJobJoiningAGapAndAnOddMinuteReportsEachBoundaryWithItsEvidence() {
    double a = 3_000_000;
    double[] rows = new double[32];
    rows[0] = 0.3 * a; // ramp-up: a partial first minute
    for (int i = 1; i < 11; i++) {
      rows[i] = a; // A alone
    }
    rows[6] = 0.6 * a; // one odd minute inside A's level
    for (int i = 11; i < 21; i++) {
      rows[i] = 2 * a; // A and B
    }
    rows[21] = 0.4 * a; // drain
    // 22..23 empty: a job switch
    for (int i = 24; i < 32; i++) {
      rows[i] = a; // B alone
    }
    for (long seed = 0; seed < 30; seed++) {
      Timeline t = minutes(seed, rows);
      List<LevelChange> changes = LevelChange.find(JobWindows.detect(t), t);
      assertEquals(
          List.of("ramp-up", "transient", "level-shift", "drain", "gap"),
          changes.stream().map(LevelChange::kind).toList(),
          "seed " + seed);
      LevelChange transientMinute = changes.get(1);
      assertEquals(T0.plusSeconds(6 * 60), transientMinute.at());
      assertEquals(-40, transientMinute.changePct(), 8);
      LevelChange shift = changes.get(2);
      assertEquals(T0.plusSeconds(11 * 60), shift.at(), "the shift is where B joined");
      // x2, against a level whose odd minute (kept in it) pulls its mean down 4%
      assertEquals(108, shift.changePct(), 10);
      assertTrue(shift.ci95LowPct() > 70 && shift.ci95HighPct() < 150, shift.toString());
      assertTrue(shift.pValue() < 0.001);
      assertTrue(shift.evidence().contains("Welch p < 0.001"), shift.evidence());
      assertTrue(
          changes.get(4).evidence().startsWith("2 empty minutes"), changes.get(4).evidence());
    }
  }
}
