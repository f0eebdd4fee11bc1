package dev.ingestbench.pubsubload;

import java.util.Locale;

/** A test's id and its verdict. */
final class Runs {
  private Runs() {}

  /** Unique enough to tell this test's messages from any earlier one's in the same subscription. */
  static String id() {
    return Long.toString(System.currentTimeMillis(), 36) + "-" + Long.toString(System.nanoTime() & 0xffffff, 36);
  }

  /** Every message accounted for: no publish or pull error, every acknowledged message received. */
  static boolean passed(LoadResult r) {
    return r.errors() == 0 && r.published() == r.acked() && r.missing() == 0 && r.counters().subscriberErrors.sum() == 0;
  }

  static String describe(LoadResult r) {
    return String.format(Locale.ROOT, "published %,d, acked %,d, errors %,d, received %,d, missing %,d, duplicates %,d",
        r.published(), r.acked(), r.errors(), r.received(), r.missing(), r.duplicates());
  }
}
