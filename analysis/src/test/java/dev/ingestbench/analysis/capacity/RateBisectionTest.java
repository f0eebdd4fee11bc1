package dev.ingestbench.analysis.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoublePredicate;
import org.junit.jupiter.api.Test;

class RateBisectionTest {
  /** Runs the search against a system that sustains {@code keeps}, achieving min(rate, limit). */
  private static List<Double> search(
      RateBisection b, DoublePredicate keeps, double limit, int max) {
    List<Double> asked = new ArrayList<>();
    while (!b.converged() && !b.exhausted() && asked.size() < max) {
      double rate = b.next();
      asked.add(rate);
      b.record(rate, keeps.test(rate), Math.min(rate, limit));
    }
    return asked;
  }

  @Test
  void rampsByDoublingThenBracketsTheLimitWithinTheResolution() {
    RateBisection b = RateBisection.rampingFrom(2_000, 140_000);
    List<Double> asked = search(b, r -> r <= 11_000, 11_000, 20);
    assertEquals(List.of(2_000.0, 4_000.0, 8_000.0, 16_000.0), asked.subList(0, 4));
    // After the first failure: what was achieved (11,000), well inside the bracket.
    assertEquals(11_000.0, asked.get(4));
    assertTrue(b.converged());
    assertTrue(b.sustained() <= 11_000 && b.sustained() > 11_000 * 0.95 - 1, "" + b.sustained());
    assertTrue((b.notSustained() - b.sustained()) / b.notSustained() < RateBisection.RESOLUTION);
  }

  @Test
  void anAchievedRateNextToTheSustainedOneIsNotProbedAgainTheMiddleIs() {
    RateBisection b = RateBisection.rampingFrom(8_000, 100_000);
    b.record(8_000, true, 8_000);
    b.record(16_000, false, 8_300);
    assertEquals(12_000, b.next());
  }

  @Test
  void aTopThatIsSustainedIsTheAnswerAndNothingAboveIsAsked() {
    RateBisection b = RateBisection.rampingFrom(2_000, 5_000);
    List<Double> asked = search(b, r -> true, Double.MAX_VALUE, 20);
    assertEquals(List.of(2_000.0, 4_000.0, 5_000.0), asked);
    assertTrue(b.converged());
    assertEquals(5_000, b.sustained());
    assertTrue(Double.isNaN(b.notSustained()));
  }

  @Test
  void nothingSustainedHalvesUntilBelowOneMessageASecond() {
    RateBisection b = RateBisection.fromTop(1_000);
    List<Double> asked = search(b, r -> false, 0, 100);
    assertFalse(b.converged());
    assertTrue(b.exhausted());
    assertEquals(0, b.sustained());
    assertEquals(1_000.0, asked.get(0));
    assertEquals(500.0, asked.get(1));
  }

  @Test
  void anUnconfirmedAnswerIsDroppedAndTheSearchGoesOnBelowIt() {
    RateBisection b = RateBisection.rampingFrom(2_000, 100_000);
    b.record(2_000, true, 2_000);
    b.record(4_000, false, 2_700);
    // what was achieved, 2,700, lies well inside (2,000, 4,000)
    assertEquals(2_700, b.next());
    b.record(2_700, true, 2_700);
    b.unconfirmed(2_700, 2_000);
    assertEquals(2_000, b.sustained());
    assertEquals(2_700, b.notSustained());
    assertEquals(2_350, b.next());
  }
}
