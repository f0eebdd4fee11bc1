package dev.ingestbench.analysis.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PairedRatioTest {
  @Test
  void aSteadyGainIsShownWithItsInterval() {
    // 10% faster in every pair although the machine slowed by half between the pairs.
    PairedRatio r = PairedRatio.of(List.of(100.0, 50.0, 80.0), List.of(110.0, 55.0, 88.0));
    assertEquals(1.10, r.ratio(), 1e-9);
    assertEquals(1.10, r.ci95Low(), 1e-9, "no spread: the interval is the point");
    assertEquals(3, r.higher());
    assertTrue(r.significant());
    assertEquals("+10.0% (95% CI +10.0% to +10.0%), higher in 3 of 3 pairs", r.describe());
  }

  @Test
  void pairsThatDisagreeShowNoDifference() {
    PairedRatio r = PairedRatio.of(List.of(100.0, 100.0, 100.0), List.of(110.0, 90.0, 101.0));
    assertTrue(r.ci95Low() < 1 && r.ci95High() > 1, r.toString());
    assertEquals(2, r.higher());
    assertFalse(r.significant());
    assertTrue(r.describe().endsWith("higher in 2 of 3 pairs: no difference shown"), r.describe());
  }

  @Test
  void aSlowdownIsNegative() {
    PairedRatio r = PairedRatio.of(List.of(100.0, 90.0), List.of(94.0, 84.0));
    assertTrue(r.ratio() < 1 && r.ci95High() < 1, r.toString());
    assertEquals(0, r.higher());
    assertTrue(r.describe().startsWith("-6."), r.describe());
  }

  @Test
  void unpairedOrEmptyFiguresAreRefused() {
    assertThrows(IllegalArgumentException.class, () -> PairedRatio.of(List.of(1.0), List.of()));
    assertThrows(IllegalArgumentException.class, () -> PairedRatio.of(List.of(), List.of()));
    assertThrows(
        IllegalArgumentException.class, () -> PairedRatio.of(List.of(0.0, 1.0), List.of(1.0, 1.0)));
    assertThrows(
        IllegalArgumentException.class,
        () -> PairedRatio.of(List.of(1.0), List.of(2.0)),
        "one pair has no interval");
  }
}
