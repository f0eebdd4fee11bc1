package dev.ingestbench.verification;

import java.util.BitSet;

/**
 * What a stopped job left in its source, counted against what it accounted for: a message read,
 * written and not yet acknowledged when the job stopped is back in the subscription, and must count
 * once (accounted for), never twice.
 */
public final class LeftInSource {
  private LeftInSource() {}

  /**
   * Published messages ({@code [0, published)}) found in the source that the job did not account
   * for.
   */
  public static long count(BitSet inSource, BitSet accounted, long published) {
    BitSet left = inSource.get(0, (int) Math.min(Integer.MAX_VALUE, published));
    left.andNot(accounted);
    return left.cardinality();
  }
}
