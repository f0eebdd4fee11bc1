package dev.ingestbench.harness.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A feed reads what the jobs accounted for again after a failed read (a busy BigQuery emulator may
 * miss one): a read that fails twice and then answers feeds on; three failures in a row fail it.
 */
class AccountedCountsTest {
  /** Fails its first {@code failures} reads, then answers 7 for every job. */
  private static AccountedCounts failingFirst(int failures, AtomicInteger reads) {
    return () -> {
      if (reads.incrementAndGet() <= failures) {
        throw new IOException("read " + reads.get() + " refused");
      }
      return job -> 7;
    };
  }

  @Test
  void twoFailedReadsInARowAreReadAgain() throws Exception {
    AtomicInteger reads = new AtomicInteger();
    assertEquals(
        7,
        failingFirst(2, reads)
            .readRetrying(TopUpFeed.READ_ATTEMPTS, Duration.ZERO)
            .applyAsLong("a"));
    assertEquals(3, reads.get());
  }

  @Test
  void threeFailedReadsInARowFailTheFeedWithTheLastError() {
    AtomicInteger reads = new AtomicInteger();
    IOException e =
        assertThrows(
            IOException.class,
            () -> failingFirst(3, reads).readRetrying(TopUpFeed.READ_ATTEMPTS, Duration.ZERO));
    assertEquals("read 3 refused", e.getMessage());
    assertEquals(3, reads.get(), "no fourth read");
  }
}
