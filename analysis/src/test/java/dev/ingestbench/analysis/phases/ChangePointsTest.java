package dev.ingestbench.analysis.phases;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** PELT on per-minute levels with the noise of the published tables (sd 2-4% of the level). */
class ChangePointsTest {
  private static double[] levels(long seed, double noise, double[]... segments) {
    Random random = new Random(seed);
    int n = 0;
    for (double[] s : segments) {
      n += (int) s[1];
    }
    double[] x = new double[n];
    int i = 0;
    for (double[] s : segments) {
      for (int k = 0; k < s[1]; k++) {
        x[i++] = s[0] * (1 + noise * random.nextGaussian());
      }
    }
    return x;
  }

  @Test
  void aJoinsBJoinsALeavesAreThreeLevelsAtTheRightMinutes() {
    int exact = 0;
    for (long seed = 0; seed < 100; seed++) {
      double[] x =
          levels(
              seed,
              0.04,
              new double[] {100_000, 6},
              new double[] {200_000, 6},
              new double[] {100_000, 6});
      List<Integer> changes = ChangePoints.detect(x);
      assertTrue(
          changes.contains(6) && changes.contains(12),
          "seed " + seed + ": both real changes found: " + changes);
      exact += changes.size() == 2 ? 1 : 0;
    }
    assertTrue(exact >= 98, "no extra cut in at least 98 of 100 noisy 18-minute rounds: " + exact);
  }

  @Test
  void aNoisyConstantLevelHasNoChange() {
    int falseChanges = 0;
    for (long seed = 0; seed < 100; seed++) {
      falseChanges += ChangePoints.detect(levels(seed, 0.04, new double[] {190_000, 30})).size();
    }
    assertEquals(0, falseChanges, "no spurious change in 100 noisy 30-minute levels");
  }

  @Test
  void aDriftOfAFewPercentIsOneLevel() {
    // 3,405k -> 3,193k rows/min over ten quiet minutes (the published round 3's second window): a
    // statistically clear drift, but no job joined or left.
    double[] x = {
      3_405_738, 3_348_835, 3_380_328, 3_335_539, 3_290_536, 3_278_013, 3_227_037, 3_250_379,
      3_193_048, 3_217_163
    };
    assertEquals(List.of(), ChangePoints.detect(x));
  }

  @Test
  void aSawtoothIsCutAtEveryBurstAndThrottle() {
    double[] x =
        levels(
            7,
            0.02,
            new double[] {400, 3},
            new double[] {60, 4},
            new double[] {400, 3},
            new double[] {60, 4},
            new double[] {400, 3},
            new double[] {60, 4});
    assertEquals(List.of(3, 7, 10, 14, 17), ChangePoints.detect(x));
  }

  @Test
  void aDayOfMinutesIsFast() {
    double[] x =
        levels(
            3,
            0.03,
            new double[] {100_000, 600},
            new double[] {200_000, 600},
            new double[] {0.5, 240});
    long start = System.nanoTime();
    List<Integer> changes = ChangePoints.detect(x);
    assertTrue(System.nanoTime() - start < 1_000_000_000L, "1,440 minutes in under a second");
    assertEquals(2, changes.size(), changes.toString());
  }
}
