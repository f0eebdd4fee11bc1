package dev.ingestbench.contracts;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;

/**
 * Which of the published event indexes [0, N) a job has not accounted for, as ranges a person can
 * read ("12,000-12,499, 30,001"): what a run that cannot complete says it is still waiting for.
 */
public final class MissingIndexes {
  private MissingIndexes() {}

  /**
   * The first {@code maxRanges} ranges of indexes in [0, {@code published}) missing from {@code
   * accounted}, then how many more ranges and indexes there are; "none" when nothing is missing.
   */
  public static String describe(BitSet accounted, long published, int maxRanges) {
    int end = (int) Math.min(published, Integer.MAX_VALUE);
    List<String> ranges = new ArrayList<>();
    long missing = 0;
    int rangeCount = 0;
    for (int from = accounted.nextClearBit(0); from < end; from = accounted.nextClearBit(from)) {
      int to =
          Math.min(
              accounted.nextSetBit(from) < 0 ? end : accounted.nextSetBit(from), end); // exclusive
      missing += to - from;
      if (rangeCount++ < maxRanges) {
        ranges.add(
            to - from == 1
                ? String.format(Locale.ROOT, "%,d", from)
                : String.format(Locale.ROOT, "%,d-%,d", from, to - 1));
      }
      from = to;
    }
    if (missing == 0) {
      return "none";
    }
    String listed = String.join(", ", ranges);
    return rangeCount <= maxRanges
        ? listed
        : String.format(
            Locale.ROOT,
            "%s and %,d more range(s): %,d indexes in all",
            listed,
            rangeCount - maxRanges,
            missing);
  }
}
