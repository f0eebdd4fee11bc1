package dev.ingestbench.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A server whose port was taken starts again on others; any other failure is not retried. */
class LoopbackPortsTest {
  private static final List<String> TAKEN = List.of("Address already in use");

  @Test
  void aTakenPortIsChosenAgainUntilTheServerStarts() throws Exception {
    AtomicInteger starts = new AtomicInteger();
    String started =
        LoopbackPorts.start(
            LoopbackPorts::free,
            TAKEN,
            ports -> {
              ports.choose();
              if (starts.incrementAndGet() < 3) {
                throw new IOException("bind 127.0.0.1:1: Address already in use");
              }
              return "up";
            });
    assertEquals("up", started);
    assertEquals(3, starts.get());
  }

  @Test
  void anotherFailureIsThrownAtOnce() {
    AtomicInteger starts = new AtomicInteger();
    IOException other = new IOException("the broker exited (code 1): bad heap");
    IOException thrown =
        assertThrows(
            IOException.class,
            () ->
                LoopbackPorts.start(
                    LoopbackPorts::free,
                    TAKEN,
                    ports -> {
                      starts.incrementAndGet();
                      throw other;
                    }));
    assertSame(other, thrown);
    assertEquals(1, starts.get());
  }

  @Test
  void theLastTakenPortIsThrownWithTheEarlierOnes() {
    AtomicInteger starts = new AtomicInteger();
    IOException thrown =
        assertThrows(
            IOException.class,
            () ->
                LoopbackPorts.start(
                    LoopbackPorts::free,
                    TAKEN,
                    ports -> {
                      throw new IOException(
                          "attempt " + starts.incrementAndGet() + ": Address already in use");
                    }));
    assertEquals(LoopbackPorts.ATTEMPTS, starts.get());
    assertEquals("attempt 3: Address already in use", thrown.getMessage());
    assertEquals(2, thrown.getSuppressed().length, "the earlier attempts' failures");
  }
}
