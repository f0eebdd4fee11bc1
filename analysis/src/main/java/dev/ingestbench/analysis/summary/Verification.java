package dev.ingestbench.analysis.summary;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The one-cell verdict of a row, by the verification policy's rules (docs/scenarios.md). */
final class Verification {
  private Verification() {}

  /**
   * {@code passed}, or each failure: lost messages, duplicates under exactly-once, an incomplete
   * run. Duplicates under at-least-once are allowed and said.
   */
  static String of(long lost, long duplicates, boolean exactlyOnce, boolean complete) {
    List<String> failed = new ArrayList<>();
    if (lost > 0) {
      failed.add(String.format(Locale.ROOT, "lost %,d", lost));
    }
    if (duplicates > 0 && exactlyOnce) {
      failed.add(String.format(Locale.ROOT, "%,d duplicates", duplicates));
    }
    if (!complete && lost == 0) {
      failed.add("incomplete");
    }
    if (!failed.isEmpty()) {
      return "failed: " + String.join(", ", failed);
    }
    return duplicates > 0
        ? String.format(Locale.ROOT, "passed (%,d duplicates, at-least-once)", duplicates)
        : "passed";
  }
}
