package dev.ingestbench.harness.staged;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.harness.source.SourceFeed;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * A failed feed of a backlog in tranches ends the segment at once (its jobs would wait for their
 * count until their --timeout); a scaled scenario's feed, which runs as long as its stages do, is
 * judged when its jobs are counted instead.
 */
class FeedCheckTest {
  private static SourceFeed feed(boolean bounded, Exception failure) {
    return new SourceFeed() {
      @Override
      public long low() {
        return 1;
      }

      @Override
      public long high() {
        return 2;
      }

      @Override
      public void start(String job) {}

      @Override
      public void stop(String job) {}

      @Override
      public void stopAll() {}

      @Override
      public boolean bounded() {
        return bounded;
      }

      @Override
      public java.util.Optional<java.time.Instant> lastTopUp() {
        return java.util.Optional.empty();
      }

      @Override
      public long published(String job) {
        return 0;
      }

      @Override
      public Exception failure() {
        return failure;
      }

      @Override
      public Object result() {
        return null;
      }

      @Override
      public void close() {}
    };
  }

  @Test
  void aFailedBoundedFeedEndsTheSegmentNamingWhy() {
    IOException e =
        assertThrows(
            IOException.class,
            () -> LocalSegment.checkFeed(feed(true, new IOException("topic deleted"))));
    assertTrue(e.getMessage().contains("feeding the jobs failed: topic deleted"), e.getMessage());
  }

  @Test
  void aWorkingFeedOrAScaledScenariosFailedOneDoesNot() {
    assertDoesNotThrow(() -> LocalSegment.checkFeed(feed(true, null)));
    assertDoesNotThrow(() -> LocalSegment.checkFeed(feed(false, new IOException("x"))));
    assertDoesNotThrow(() -> LocalSegment.checkFeed(null));
  }
}
