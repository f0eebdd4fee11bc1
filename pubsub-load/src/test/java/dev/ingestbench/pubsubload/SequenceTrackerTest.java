package dev.ingestbench.pubsubload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Duplicates and missing messages from sequence numbers, across blocks and threads. */
class SequenceTrackerTest {

  @Test
  void aSecondSightingIsADuplicateAndAnUnseenNumberIsMissing() {
    SequenceTracker acked = new SequenceTracker();
    SequenceTracker received = new SequenceTracker();
    LongStream.range(0, 3_000_000).forEach(acked::mark); // three blocks of 2^20
    LongStream.range(0, 3_000_000).filter(i -> i % 1000 != 7).forEach(received::mark);
    assertTrue(received.mark(5) == false);
    assertFalse(received.mark(2_999_999));
    assertEquals(2, received.duplicates());
    assertEquals(3_000, acked.missingFrom(received));
    assertEquals(0, received.missingFrom(acked));
    assertEquals(3_000_000 - 3_000, received.distinct());
  }

  @Test
  void threadsMarkingTheSameNumbersCountEachOnceAndTheRestAsDuplicates() throws Exception {
    SequenceTracker t = new SequenceTracker();
    Thread[] threads = new Thread[4];
    for (int i = 0; i < threads.length; i++) {
      threads[i] = new Thread(() -> LongStream.range(0, 500_000).forEach(t::mark));
      threads[i].start();
    }
    for (Thread th : threads) {
      th.join();
    }
    assertEquals(500_000, t.distinct());
    assertEquals(3 * 500_000, t.duplicates());
  }
}
