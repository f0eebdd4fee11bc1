package dev.ingestbench.harness.round;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.WindowLatency;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProbeVerdictTest {
  private static final Duration SLO = Duration.ofSeconds(10);

  private static WindowLatency.Percentiles latency(long samples, long p99) {
    return new WindowLatency.Percentiles(samples, p99 / 2, p99 - 1, p99, p99 + 1, p99 + 2);
  }

  private static String verdict(
      double published, double written, WindowLatency.Percentiles l, String cut) {
    return ProbeVerdict.of(4_000, published, written, l, 80_000, SLO, cut, 0.95, 0.01);
  }

  @Test
  void aRateKeptOnEverySideWithinTheSloIsSustained() {
    assertEquals(ProbeVerdict.SUSTAINED, verdict(3_990, 3_900, latency(80_000, 2_300), null));
  }

  @Test
  void aPublisherThatFellBehindFailsTheProbe() {
    assertTrue(
        verdict(3_000, 3_000, latency(80_000, 2_000), null)
            .startsWith("the publisher sent 3,000 of 4,000"));
  }

  @Test
  void aJobThatWroteLessThanTheRateFailsTheProbe() {
    assertTrue(
        verdict(4_000, 3_700, latency(80_000, 2_000), null)
            .startsWith("the job wrote 3,700 of 4,000"));
  }

  @Test
  void messagesStillInvisibleAfterTheSloFailTheProbeEvenWithAGoodP99OfTheRest() {
    String v = verdict(4_000, 4_000, latency(79_000, 2_000), null);
    assertTrue(v.startsWith("latency: 1,000 of the window's 80,000 messages"), v);
  }

  @Test
  void aP99AboveTheSloFailsTheProbe() {
    String v = verdict(4_000, 4_000, latency(80_000, 10_001), null);
    assertTrue(v.startsWith("latency: p99 10,001 ms"), v);
  }

  @Test
  void noVisibleMessageAtAllFailsTheProbe() {
    assertTrue(verdict(4_000, 4_000, null, null).startsWith("latency"));
    assertTrue(
        ProbeVerdict.of(4_000, 4_000, 4_000, null, 0, SLO, null, 0.95, 0.01).startsWith("latency"));
  }

  @Test
  void aProbeCutShortSaysWhy() {
    assertEquals("cut short: deep", verdict(4_000, 4_000, latency(80_000, 1), "cut short: deep"));
  }
}
