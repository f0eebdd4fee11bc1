package dev.ingestbench.analysis.document;

import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * How a report writes a number: thousands separated, a fixed count of decimals, NaN or infinity (a
 * figure divided by nothing) as "n/a", a figure the run does not have as "—". One place, so the
 * same figure reads the same in every report.
 */
public final class Numbers {
  private Numbers() {}

  /** A figure the run does not have (a metric it did not record). */
  public static final String MISSING = "—";

  /** {@code value} as {@code format} writes it, or {@link #MISSING} when the run has none. */
  public static String orMissing(Double value, DoubleFunction<String> format) {
    return value == null ? MISSING : format.apply(value);
  }

  /** A 95% interval: {@code 1,227 – 2,516} as whole numbers, or {@link #MISSING}. */
  public static String range(Double low, Double high) {
    return low == null || high == null ? MISSING : f0(low) + " – " + f0(high);
  }

  /** A change in percent with its sign: {@code +12.3%}, {@code -4.0%}. */
  public static String signedPct(double percent) {
    return !Double.isFinite(percent) ? "n/a" : String.format(Locale.ROOT, "%+.1f%%", percent);
  }

  /** A setting as given, without separators or trailing zeros: {@code 1}, {@code 0.001}. */
  public static String plain(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }

  /** A count: {@code 1,234,567}. */
  public static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** A whole number with separators: {@code 12,346}. */
  public static String f0(double v) {
    return !Double.isFinite(v) ? "n/a" : String.format(Locale.ROOT, "%,.0f", v);
  }

  /** One decimal, thousands separated: {@code 1,234.5}. */
  public static String f1(double v) {
    return !Double.isFinite(v) ? "n/a" : String.format(Locale.ROOT, "%,.1f", v);
  }

  /** Two decimals: {@code 12.35}. */
  public static String f2(double v) {
    return !Double.isFinite(v) ? "n/a" : String.format(Locale.ROOT, "%.2f", v);
  }

  /**
   * A rate: whole from 10 up ({@code 1,200}), two decimals below, where a scaled-down rate lives
   * ({@code 0.30}).
   */
  public static String rate(double v) {
    return v >= 10 ? f0(v) : f2(v);
  }

  /** Dollars with cents, thousands separated: {@code $3,223.68}, {@code -$51.20}. */
  public static String usd(double v) {
    return !Double.isFinite(v)
        ? "n/a"
        : (v < 0 ? "-$" : "$") + String.format(Locale.ROOT, "%,.2f", Math.abs(v));
  }

  /** Whole dollars, thousands separated: {@code $75,266}. */
  public static String usd0(double v) {
    return !Double.isFinite(v)
        ? "n/a"
        : (v < 0 ? "-$" : "$") + String.format(Locale.ROOT, "%,.0f", Math.abs(v));
  }

  /** A fraction as a percentage with one decimal: 0.1234 is {@code 12.3%}. */
  public static String pct(double fraction) {
    return !Double.isFinite(fraction)
        ? "n/a"
        : String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
  }
}
