package dev.ingestbench.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.BitSet;
import org.junit.jupiter.api.Test;

class MissingIndexesTest {
  @Test
  void missingIndexesAreNamedAsRanges() {
    BitSet accounted = new BitSet();
    accounted.set(0, 10);
    accounted.set(12, 2_000);
    accounted.set(2_001, 5_000);
    assertEquals("none", MissingIndexes.describe(accounted, 10, 3));
    assertEquals("10-11, 2,000", MissingIndexes.describe(accounted, 5_000, 3));
    assertEquals("10-11, 2,000, 5,000-5,999", MissingIndexes.describe(accounted, 6_000, 3));
    assertEquals(
        "10-11 and 2 more range(s): 1,003 indexes in all",
        MissingIndexes.describe(accounted, 6_000, 1));
    assertEquals("0-2", MissingIndexes.describe(new BitSet(), 3, 3), "nothing accounted for");
  }
}
