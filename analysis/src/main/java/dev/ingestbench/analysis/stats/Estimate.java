package dev.ingestbench.analysis.stats;

import java.util.List;
import java.util.function.DoubleFunction;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;

/**
 * The mean of n samples with its standard deviation and two-sided 95% confidence interval
 * (Student's t, n-1 degrees of freedom). With one sample the interval is the point itself.
 */
public record Estimate(double mean, double stddev, double ci95Low, double ci95High, long n) {

  /** Half the 95% interval's width: what a figure is given as plus or minus. */
  public double halfWidth() {
    return (ci95High - ci95Low) / 2;
  }

  /** {@code 10,000 ± 52}: the mean and half the 95% interval, each as {@code format} writes it. */
  public String plusMinus(DoubleFunction<String> format) {
    return format.apply(mean) + " ± " + format.apply(halfWidth());
  }

  public static Estimate of(List<Double> samples) {
    SummaryStatistics stats = new SummaryStatistics();
    samples.forEach(stats::addValue);
    return of(stats);
  }

  public static Estimate of(SummaryStatistics stats) {
    long n = stats.getN();
    if (n == 0) {
      return new Estimate(Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0);
    }
    double mean = stats.getMean();
    if (n == 1) {
      return new Estimate(mean, 0, mean, mean, 1);
    }
    double sd = stats.getStandardDeviation();
    double t = new TDistribution(n - 1).inverseCumulativeProbability(0.975);
    double half = t * sd / Math.sqrt(n);
    return new Estimate(mean, sd, mean - half, mean + half, n);
  }
}
