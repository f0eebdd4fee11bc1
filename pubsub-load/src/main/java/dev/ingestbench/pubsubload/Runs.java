package dev.ingestbench.pubsubload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A test's id and its verdict. */
final class Runs {
  private Runs() {}

  /** Unique enough to tell this test's messages from any earlier one's in the same subscription. */
  static String id() {
    return Long.toString(System.currentTimeMillis(), 36)
        + "-"
        + Long.toString(System.nanoTime() & 0xffffff, 36);
  }

  /** A summary's {@code totals}: what {@link LoadVerification} judges. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> totals(Map<String, Object> summary) {
    return (Map<String, Object>) summary.get("totals");
  }

  /**
   * "Published 20,726 msg/s (p99 928 ms); received 20,761 msg/s; missing 0, duplicates 0", for the
   * sides that ran.
   */
  static String headline(LoadResult r) {
    List<String> parts = new ArrayList<>();
    if (r.settings().side().publishes()) {
      parts.add(
          String.format(
              Locale.ROOT,
              "published %,.0f msg/s (publish p99 %,.1f ms)",
              r.publishedPerSecond().mean(),
              r.publishLatency().getTotalCount() == 0
                  ? 0
                  : r.publishLatency().getValueAtPercentile(99) / 1000.0));
    }
    if (r.settings().side().subscribes()) {
      parts.add(
          String.format(
              Locale.ROOT,
              "received %,.0f msg/s, duplicates %,d",
              r.receivedPerSecond().mean(),
              r.duplicates()));
    }
    if (r.settings().side() == LoadSettings.Side.BOTH) {
      parts.add(String.format(Locale.ROOT, "missing %,d", r.missing()));
    }
    String line = String.join("; ", parts);
    return Character.toUpperCase(line.charAt(0)) + line.substring(1);
  }

  static String describe(LoadResult r) {
    return String.format(
        Locale.ROOT,
        "published %,d, acked %,d, errors %,d, received %,d, missing %,d, duplicates %,d",
        r.published(),
        r.acked(),
        r.errors(),
        r.received(),
        r.missing(),
        r.duplicates());
  }
}
