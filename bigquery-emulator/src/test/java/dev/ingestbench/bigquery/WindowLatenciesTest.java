package dev.ingestbench.bigquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.WindowLatency;
import org.junit.jupiter.api.Test;

/** A job's latency by second of intended send time, read back by window. */
class WindowLatenciesTest {
  private static WindowLatencies oneRowEachSecond() {
    WindowLatencies l = new WindowLatencies();
    for (long second = 100; second < 110; second++) {
      long intendedMicros = second * 1_000_000L;
      l.record(intendedMicros, intendedMicros, second * 1000 + 250);
    }
    return l;
  }

  @Test
  void aWindowHoldsTheRowsMeantToBeSentInItsWholeSeconds() {
    WindowLatency w = oneRowEachSecond().window(102_000, 105_000);
    assertEquals(3, w.intended().samples());
    assertEquals(250, w.intended().p50Ms());
  }

  @Test
  void anEmptyWindowHoldsNothing() {
    WindowLatency w = oneRowEachSecond().window(104_000, 104_000);
    assertNull(w.intended());
    assertNull(w.published());
  }

  @Test
  void aWindowThatEndsBeforeItBeginsIsRefusedNamingBoth() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> oneRowEachSecond().window(105_000, 104_000));
    assertTrue(e.getMessage().contains("to_ms=104000 is before from_ms=105000"), e.getMessage());
  }
}
