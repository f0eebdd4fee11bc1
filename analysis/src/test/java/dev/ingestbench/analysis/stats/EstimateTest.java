package dev.ingestbench.analysis.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class EstimateTest {
  @Test
  void meanStddevAndStudentTIntervalMatchHandComputedValues() {
    // Samples 10, 12, 14, 16, 18: mean 14, sample sd sqrt(10) = 3.1623; t(0.975, 4) = 2.7764.
    Estimate e = Estimate.of(List.of(10.0, 12.0, 14.0, 16.0, 18.0));
    assertEquals(14.0, e.mean(), 1e-12);
    assertEquals(Math.sqrt(10), e.stddev(), 1e-9);
    double half = 2.776445105 * Math.sqrt(10) / Math.sqrt(5);
    assertEquals(14 - half, e.ci95Low(), 1e-6);
    assertEquals(14 + half, e.ci95High(), 1e-6);
    assertEquals(5, e.n());
  }

  @Test
  void oneSampleHasNoSpreadAndNoSamplesHaveNoMean() {
    Estimate one = Estimate.of(List.of(7.0));
    assertEquals(7.0, one.ci95Low());
    assertEquals(7.0, one.ci95High());
    assertEquals(0, Estimate.of(List.of()).n());
    assertEquals(Double.NaN, Estimate.of(List.of()).mean());
  }
}
