package dev.ingestbench.analysis.phases;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.model.Timeline;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Job windows, their ramp-up and drain minutes, and the levels between them. */
class JobWindowsTest {
  private static final Instant T0 = Instant.parse("2026-02-12T10:00:00Z");

  private static Timeline minutes(long seed, double... rowsPerMinute) {
    Random random = new Random(seed);
    List<Bucket> buckets = new ArrayList<>();
    for (int i = 0; i < rowsPerMinute.length; i++) {
      long rows =
          Math.round(
              rowsPerMinute[i] * (rowsPerMinute[i] > 1_000 ? 1 + 0.03 * random.nextGaussian() : 1));
      buckets.add(new Bucket(T0.plusSeconds(60L * i), 60, rows, rows * 500, rows / 500, 0));
    }
    return Timeline.ofBuckets(buckets, 60);
  }

  private static double[] repeat(double value, int n) {
    double[] v = new double[n];
    Arrays.fill(v, value);
    return v;
  }

  private static double[] concat(double[]... parts) {
    return Arrays.stream(parts).flatMapToDouble(Arrays::stream).toArray();
  }

  @Test
  void aAloneThenAAndBThenBAloneAreThreeLevels() {
    // the round the published investigation ran without a gap: a ramp-up minute, A, A+B, B, a drain
    // minute
    for (long seed = 0; seed < 20; seed++) {
      Timeline t =
          minutes(
              seed,
              concat(
                  new double[] {40_000},
                  repeat(6_000_000, 6),
                  repeat(12_000_000, 6),
                  repeat(6_000_000, 6),
                  new double[] {2_000_000}));
      List<String> names =
          JobWindows.detect(t).stream()
              .map(p -> p.name() + " " + p.fromIndex() + ".." + p.toIndex())
              .toList();
      assertEquals(
          List.of(
              "W1 ramp-up 0..1",
              "W1 steady 1 1..7",
              "W1 steady 2 7..13",
              "W1 steady 3 13..19",
              "W1 drain 19..20"),
          names,
          "seed " + seed);
    }
  }

  @Test
  void aJobAloneAtHalfTheRateBeforeAnotherJoinsIsALevelNotARampUp() {
    Timeline t = minutes(3, concat(repeat(6_000_000, 3), repeat(12_000_000, 20)));
    assertEquals(
        List.of("W1 steady 1", "W1 steady 2"),
        JobWindows.detect(t).stream().map(Phase::name).toList());
  }

  @Test
  void emptyMinutesSeparateWindows() {
    Timeline t = minutes(5, concat(repeat(6_000_000, 5), repeat(0, 3), repeat(6_000_000, 5)));
    assertEquals(
        List.of("W1 steady", "W2 steady"), JobWindows.detect(t).stream().map(Phase::name).toList());
  }

  @Test
  void oneOddMinuteInAFlatLevelIsATransientNotThreeLevels() {
    // A naive reading (and the change-point method alone) makes the odd minute and a neighbour a
    // level
    // of their own, splitting one level into three: a job leaving and rejoining that never
    // happened.
    for (double odd : new double[] {0.5, 0.7, 1.3, 1.5}) {
      for (long seed = 0; seed < 20; seed++) {
        double[] rows = repeat(6_000_000, 40);
        rows[20] *= odd;
        assertEquals(
            List.of("W1 steady"),
            JobWindows.detect(minutes(seed, rows)).stream().map(Phase::name).toList(),
            "odd minute x" + odd + ", seed " + seed);
      }
    }
  }

  @Test
  void twoMinutesThatBothMovedAreARealExcursion() {
    // a two-minute dip to half (a throttle, a job stalling) is what an incident analysis looks for
    for (long seed = 0; seed < 20; seed++) {
      double[] rows = repeat(6_000_000, 40);
      rows[20] *= 0.5;
      rows[21] *= 0.5;
      List<String> names =
          JobWindows.detect(minutes(seed, rows)).stream()
              .map(p -> p.name() + " " + p.fromIndex() + ".." + p.toIndex())
              .toList();
      assertEquals(
          List.of("W1 steady 1 0..20", "W1 steady 2 20..22", "W1 steady 3 22..40"),
          names,
          "seed " + seed);
    }
  }
}
