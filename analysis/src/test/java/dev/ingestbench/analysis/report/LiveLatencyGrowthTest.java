package dev.ingestbench.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.LiveProfileResult;
import dev.ingestbench.contracts.WindowLatency;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The halves' medians decide, and the evidence names the latency it read. */
class LiveLatencyGrowthTest {
  private static final long START = 1_000_000;

  private static WindowLatency.Percentiles p50(long ms) {
    return new WindowLatency.Percentiles(1000, ms, ms, ms, ms, ms);
  }

  /** Halves of 5 s from 1 s and 6 s into the phase, at 10,000 msg/s. */
  private static LiveProfileResult halves(
      WindowLatency.Percentiles firstIntended,
      WindowLatency.Percentiles firstPublished,
      WindowLatency.Percentiles secondIntended,
      WindowLatency.Percentiles secondPublished) {
    return new LiveProfileResult(
        "r",
        "1x:1s,1x:5s,1x:5s",
        10_000,
        START,
        List.of(
            step(
                2, 1, new WindowLatency(START + 1000, START + 6000, firstIntended, firstPublished)),
            step(
                3,
                6,
                new WindowLatency(START + 6000, START + 11000, secondIntended, secondPublished))));
  }

  private static LiveProfileResult.Step step(int number, long fromSecond, WindowLatency latency) {
    return new LiveProfileResult.Step(
        number,
        1,
        10_000,
        START + fromSecond * 1000,
        START + (fromSecond + 5) * 1000,
        50_000,
        50_000,
        null,
        null,
        Map.of("job-1", latency));
  }

  @Test
  void aMedianGrownByMoreThanTheAllowanceIsBehind() {
    // 5 s apart: 95% of the rate adds 263 ms.
    Optional<RoundLiveVerdict> kept =
        LiveLatencyGrowth.of(halves(p50(1200), p50(1100), p50(1400), p50(1300)), 10_000);
    assertEquals("kept-up", kept.orElseThrow().name(), kept.toString());
    assertTrue(kept.get().evidence().contains("publish -> visible"), kept.get().evidence());
    Optional<RoundLiveVerdict> behind =
        LiveLatencyGrowth.of(halves(p50(1200), p50(1100), p50(1500), p50(1400)), 10_000);
    assertEquals("behind", behind.orElseThrow().name(), behind.toString());
  }

  @Test
  void withoutPublishTimesTheEvidenceSaysItReadTheIntendedSendTimes() {
    Optional<RoundLiveVerdict> v =
        LiveLatencyGrowth.of(halves(p50(1200), null, p50(1250), null), 10_000);
    assertTrue(v.orElseThrow().evidence().contains("intended send -> visible"), v.toString());
    assertTrue(!v.get().evidence().contains("publish ->"), v.get().evidence());
  }
}
