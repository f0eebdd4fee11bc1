package dev.ingestbench.harness.staged;

import java.time.Duration;
import java.time.Instant;

/**
 * The driver's clock and its waits: the system's in a run, a fake one that jumps ahead in tests.
 */
public interface Ticker {
  Instant now();

  void sleep(Duration duration) throws InterruptedException;

  /** Seconds from {@code start} to now, to the nanosecond. */
  default double secondsSince(Instant start) {
    return Duration.between(start, now()).toNanos() / 1e9;
  }

  static Ticker system() {
    return new Ticker() {
      @Override
      public Instant now() {
        return Instant.now();
      }

      @Override
      public void sleep(Duration duration) throws InterruptedException {
        Thread.sleep(duration.toMillis());
      }
    };
  }
}
