package dev.ingestbench.analysis.scenario;

import dev.ingestbench.analysis.document.Numbers;
import java.util.Locale;

/** How a scenario report's cells write a figure that may be missing. */
final class Cells {
  private Cells() {}

  /** {@code value} in {@code format}, or "—" when the run has no such figure. */
  static String fmt(Double value, String format) {
    return value == null ? "—" : String.format(Locale.ROOT, format, value);
  }

  /** A 95% interval, "low – high", or "—". */
  static String range(Double low, Double high) {
    return low == null || high == null ? "—" : Numbers.f0(low) + " – " + Numbers.f0(high);
  }

  /** A count that may be missing: "n/a" then. */
  static String count(Double value) {
    return value == null ? "n/a" : Numbers.f0(value);
  }

  /** A change in percent with its sign: {@code +12.3%}. */
  static String signedPct(double percent) {
    return Double.isNaN(percent) ? "n/a" : String.format(Locale.ROOT, "%+.1f%%", percent);
  }

  /** A scale as given: 1, 0.001. */
  static String trim(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
