package dev.ingestbench.analysis.stats;

import java.util.List;
import java.util.Locale;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.StatUtils;
import org.apache.commons.math3.stat.inference.TTest;

/**
 * Phase {@code b} against phase {@code a} on mean rows/s: the difference in % of a, its 95%
 * confidence interval (Welch–Satterthwaite degrees of freedom) and Welch's two-sided t-test, in
 * place of an eyeballed "< 2%, noise".
 */
public record Comparison(
    String a,
    String b,
    double differencePct,
    double ci95LowPct,
    double ci95HighPct,
    double pValue,
    boolean significant) {

  public static final double ALPHA = 0.05;

  public static Comparison of(PhaseSummary a, PhaseSummary b) {
    return of(
        a.phase().name(), a.rowsPerSecondSamples(), b.phase().name(), b.rowsPerSecondSamples());
  }

  /**
   * Samples {@code b} against samples {@code a} (per-second rates of two stages, or iteration
   * means).
   */
  public static Comparison of(String nameA, List<Double> a, String nameB, List<Double> b) {
    double[] x = a.stream().mapToDouble(Double::doubleValue).toArray();
    double[] y = b.stream().mapToDouble(Double::doubleValue).toArray();
    if (x.length < 2 || y.length < 2) {
      return new Comparison(
          nameA,
          nameB,
          pct(StatUtils.mean(y) - StatUtils.mean(x), StatUtils.mean(x)),
          Double.NaN,
          Double.NaN,
          Double.NaN,
          false);
    }
    double meanA = StatUtils.mean(x);
    double meanB = StatUtils.mean(y);
    double va = StatUtils.variance(x) / x.length;
    double vb = StatUtils.variance(y) / y.length;
    double se = Math.sqrt(va + vb);
    double p;
    double half;
    if (se == 0) {
      p = meanA == meanB ? 1 : 0;
      half = 0;
    } else {
      double df = (va + vb) * (va + vb) / (va * va / (x.length - 1) + vb * vb / (y.length - 1));
      half = new TDistribution(df).inverseCumulativeProbability(1 - ALPHA / 2) * se;
      p = new TTest().tTest(x, y);
    }
    double diff = meanB - meanA;
    return new Comparison(
        nameA,
        nameB,
        pct(diff, meanA),
        pct(diff - half, meanA),
        pct(diff + half, meanA),
        p,
        p < ALPHA);
  }

  private static double pct(double diff, double base) {
    return base == 0 ? Double.NaN : 100 * diff / base;
  }

  /** "no significant difference" or the direction and size, for reports. */
  public String verdict() {
    if (Double.isNaN(pValue)) {
      return "too few samples to test";
    }
    return significant
        ? String.format(
            Locale.ROOT,
            "%s is %.1f%% %s than %s (p = %.3f)",
            b,
            Math.abs(differencePct),
            differencePct > 0 ? "higher" : "lower",
            a,
            pValue)
        : String.format(Locale.ROOT, "no significant difference (p = %.2f)", pValue);
  }
}
