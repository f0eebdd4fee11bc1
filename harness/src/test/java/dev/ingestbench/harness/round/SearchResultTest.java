package dev.ingestbench.harness.round;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.analysis.capacity.RateBisection;
import dev.ingestbench.contracts.MaxRateResult;
import dev.ingestbench.contracts.WindowLatency;
import dev.ingestbench.harness.spec.MaxRateSpec;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SearchResultTest {
  private static final MaxRateSpec SPEC =
      new MaxRateSpec(Duration.ofSeconds(10), Duration.ofSeconds(20), 10, 1);

  private static MaxRateResult.Probe probe(
      int n,
      double rate,
      boolean ok,
      String verdict,
      double consumerCores,
      double machineBusy,
      double sourceCores,
      long throttled,
      long refused,
      List<Double> samples) {
    double mean = samples.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    return new MaxRateResult.Probe(
        n,
        rate,
        "2026-11-27T00:00:00Z",
        rate,
        new MaxRateResult.Rate(mean, mean - 10, mean + 10, samples.size()),
        samples,
        0,
        new WindowLatency.Percentiles(100, 1, 2, 3, 4, 5),
        null,
        100,
        consumerCores,
        machineBusy,
        sourceCores,
        0.1,
        throttled,
        refused,
        ok,
        verdict,
        0);
  }

  /** {@code p} with {@code otherCores} used by processes outside the round. */
  private static MaxRateResult.Probe besideOtherWork(MaxRateResult.Probe p, double otherCores) {
    return new MaxRateResult.Probe(
        p.number(),
        p.askedPerSecond(),
        p.startedAt(),
        p.publishedPerSecond(),
        p.writtenPerSecond(),
        p.writtenSamples(),
        p.backlogAtEnd(),
        p.intended(),
        p.published(),
        p.expectedMessages(),
        p.consumerCores(),
        p.machineBusyShare(),
        p.sourceCores(),
        p.sinkCores(),
        p.throttledAppends(),
        p.refusedConnections(),
        p.sustained(),
        p.verdict(),
        otherCores);
  }

  /**
   * A publisher starved by work outside the round is not the pipeline's limit: the search names the
   * machine and the other processes' share (a busy machine answered "limited by the publisher").
   */
  @Test
  void otherWorkOnTheMachineIsTheLimitNotThePublisher() {
    RateBisection b = RateBisection.rampingFrom(1_000, 1_076);
    b.record(1_000, true, 1_000);
    MaxRateResult.Probe kept =
        probe(1, 1_000, true, "sustained", 0.4, 0.99, 0.1, 0, 0, List.of(1_000.0, 1_000.0));
    MaxRateResult quiet = SearchResult.of(SPEC, 1, 2, "run", 1_076, b, List.of(kept));
    assertEquals("publisher", quiet.limitedBy());
    MaxRateResult busy =
        SearchResult.of(SPEC, 1, 2, "run", 1_076, b, List.of(besideOtherWork(kept, 0.6)));
    assertEquals("machine-cpu", busy.limitedBy());
    assertTrue(
        busy.limitEvidence().startsWith("other processes used 0.60 cores of 2 during probe 1"),
        busy.limitEvidence());
    assertTrue(busy.limitEvidence().contains("(the limit as measured: publisher,"));
  }

  private static MaxRateResult.Probe failing(double machineBusy, double consumer, double source) {
    return probe(
        2,
        8_000,
        false,
        "the job wrote 5,000 of 8,000 rows/s",
        consumer,
        machineBusy,
        source,
        0,
        0,
        List.of(5_000.0));
  }

  private static String limitOf(MaxRateResult.Probe p) {
    return SearchResult.limit(p, false, 100_000, 2).name();
  }

  @Test
  void theAnswerPoolsTheSecondsOfEveryProbeAtItsRate() {
    RateBisection b = RateBisection.rampingFrom(4_000, 100_000);
    b.record(4_000, true, 4_000);
    b.record(8_000, false, 5_000);
    List<MaxRateResult.Probe> probes =
        List.of(
            probe(1, 4_000, true, "sustained", 1.0, 0.6, 0.3, 0, 0, List.of(3_990.0, 4_010.0)),
            failing(0.97, 1.6, 0.3),
            probe(3, 4_000, true, "sustained", 1.0, 0.6, 0.3, 0, 0, List.of(4_000.0, 4_000.0)));
    MaxRateResult r = SearchResult.of(SPEC, 1, 2, "run", 100_000, b, probes);
    assertEquals(4_000, r.maxSustainableRowsPerSecond());
    assertEquals(2, r.sustainedProbes());
    assertEquals(4, r.sustainedRowsPerSecond().samples());
    assertEquals(4_000, r.sustainedRowsPerSecond().mean(), 1e-9);
    assertEquals(2_000, r.rowsPerSecondPerVcpu());
    assertEquals(4_000, r.rowsPerConsumerCpuSecond(), 1e-9);
    assertEquals("consumer-cpu", r.limitedBy());
    assertEquals(8_000, r.bracketNotSustained());
  }

  @Test
  void aSearchThatSustainedNothingHasNoAnswer() {
    RateBisection b = RateBisection.rampingFrom(4_000, 100_000);
    b.record(4_000, false, 1_000);
    MaxRateResult r =
        SearchResult.of(SPEC, 1, 2, "run", 100_000, b, List.of(failing(0.5, 0.4, 0.2)));
    assertNull(r.maxSustainableRowsPerSecond());
    assertNull(r.sustainedRowsPerSecond());
    assertEquals(0, r.sustainedProbes());
    assertEquals(0, r.bracketSustained());
  }

  @Test
  void theLimitIsNamedFromTheFiguresOfTheLowestFailedProbe() {
    assertEquals("publisher", SearchResult.limit(null, true, 100_000, 2).name());
    assertEquals(
        "quota",
        limitOf(probe(2, 8_000, false, "the job wrote", 1.0, 0.95, 0.3, 12, 0, List.of(1.0))));
    assertEquals(
        "connections",
        limitOf(probe(2, 8_000, false, "the job wrote", 1.0, 0.95, 0.3, 0, 3, List.of(1.0))));
    assertEquals("consumer-cpu", limitOf(failing(0.95, 1.2, 0.3)));
    assertEquals("machine-cpu", limitOf(failing(0.95, 0.5, 0.8)));
    assertEquals("source-emulator", limitOf(failing(0.7, 0.5, 0.95)));
    assertEquals("consumer-cpu", limitOf(failing(0.92, 1.9, 0.1)));
    assertEquals(
        "latency",
        limitOf(
            probe(2, 8_000, false, "latency: p99 12,000 ms", 0.5, 0.5, 0.3, 0, 0, List.of(1.0))));
    assertEquals(
        "publisher",
        limitOf(
            probe(
                2,
                8_000,
                false,
                "the publisher sent 7,000 of 8,000",
                0.5,
                0.5,
                0.3,
                0,
                0,
                List.of(1.0))));
    assertEquals("unknown", limitOf(failing(0.5, 0.5, 0.3)));
    assertTrue(
        SearchResult.limit(failing(0.95, 1.2, 0.3), false, 1, 2)
            .evidence()
            .contains("machine busy 95%"));
  }
}
