package dev.ingestbench.analysis.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * How one build's figure compares with another's, measured in pairs run one after the other on the
 * same machine: the geometric mean of the per-pair ratios (candidate / baseline) with its 95%
 * confidence interval (Student's t over the log ratios, n-1 degrees of freedom), and how many pairs
 * agree with its direction. Pairing cancels the machine's drift from hour to hour, which is far
 * larger than most changes of the code; a figure from another day is not comparable at all.
 *
 * @param ratio the geometric mean of candidate / baseline over the pairs
 * @param ci95Low the interval's low end (a ratio)
 * @param ci95High the interval's high end (a ratio)
 * @param pairs the pairs measured
 * @param higher pairs in which the candidate's figure was the higher
 */
public record PairedRatio(double ratio, double ci95Low, double ci95High, int pairs, int higher) {

  /** Pairs {@code baseline.get(i)}, {@code candidate.get(i)}; every figure must be above zero. */
  public static PairedRatio of(List<Double> baseline, List<Double> candidate) {
    if (baseline.size() != candidate.size() || baseline.size() < 2) {
      throw new IllegalArgumentException(
          "pairs need as many baseline as candidate figures, at least two each: "
              + baseline.size()
              + " and "
              + candidate.size());
    }
    List<Double> logs = new ArrayList<>();
    int higher = 0;
    for (int i = 0; i < baseline.size(); i++) {
      double b = baseline.get(i);
      double c = candidate.get(i);
      if (!(b > 0) || !(c > 0)) {
        throw new IllegalArgumentException(
            "pair " + (i + 1) + " has a figure that is not above zero: " + b + " and " + c);
      }
      logs.add(Math.log(c / b));
      if (c > b) {
        higher++;
      }
    }
    Estimate e = Estimate.of(logs);
    return new PairedRatio(
        Math.exp(e.mean()), Math.exp(e.ci95Low()), Math.exp(e.ci95High()), logs.size(), higher);
  }

  /** Whether the interval excludes 1: a difference these pairs can tell from the noise. */
  public boolean significant() {
    return ci95Low > 1 || ci95High < 1;
  }

  /**
   * {@code +4.1% (95% CI +1.0% to +7.3%), higher in 3 of 3 pairs}, or {@code no difference shown}
   * when the interval holds 1.
   */
  public String describe() {
    String line =
        String.format(
            java.util.Locale.ROOT,
            "%s (95%% CI %s to %s), higher in %d of %d pairs",
            percent(ratio),
            percent(ci95Low),
            percent(ci95High),
            higher,
            pairs);
    return significant() ? line : line + ": no difference shown";
  }

  private static String percent(double ratio) {
    return String.format(java.util.Locale.ROOT, "%+.1f%%", (ratio - 1) * 100);
  }
}
