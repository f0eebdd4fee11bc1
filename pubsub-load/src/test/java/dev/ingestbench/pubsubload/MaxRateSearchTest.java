package dev.ingestbench.pubsubload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** When a probe sustains its rate, and what it says when it does not. */
class MaxRateSearchTest {
  private final MaxRateSearch search = new MaxRateSearch(defaults(), Duration.ofSeconds(10), 5);

  private static LoadSettings defaults() {
    PubsubLoadCommand command = new PubsubLoadCommand();
    new CommandLine(command).parseArgs();
    return command.settings();
  }

  @Test
  void bothSidesWithin5PercentAndTheLatencyWithinTheSloKeepUp() {
    assertEquals("kept up", search.judge(0, 40_000, 38_001, 900, 0));
    assertEquals("kept up", search.judge(5_000, 4_751, 4_600, 9_999, 0));
  }

  @Test
  void anUnlimitedProbeThatFailsNamesTheSideItPointsAt() {
    assertEquals("subscriber", MaxRateSearch.limit(search.judge(0, 48_800, 6_300, 10, 0)));
    assertEquals("latency", MaxRateSearch.limit(search.judge(0, 1_000, 1_000, 12_000, 0)));
    assertEquals("publisher", MaxRateSearch.limit(search.judge(0, 0, 0, Double.NaN, 0)));
    assertEquals("publisher", MaxRateSearch.limit(search.judge(0, 1_000, 1_000, 10, 2)));
  }

  @Test
  void eachFailureSaysWhichSideOrLimit() {
    assertEquals("3 publish errors", search.judge(5_000, 5_000, 5_000, 10, 3));
    assertEquals(
        "the publisher sent 4,000 of 5,000 msg/s", search.judge(5_000, 4_000, 4_000, 10, 0));
    assertEquals(
        "the subscriber received 6,300 of 48,800 msg/s published",
        search.judge(0, 48_800, 6_300, 10, 0));
    assertEquals(
        "latency: end-to-end p99 12,000 ms is above --latency-slo 10000 ms",
        search.judge(0, 1_000, 1_000, 12_000, 0));
    assertEquals(
        "latency: end-to-end p99 NaN ms is above --latency-slo 10000 ms",
        search.judge(0, 1_000, 1_000, Double.NaN, 0),
        "nothing measured is not within the SLO");
    assertTrue(
        search.judge(0, 0, 0, Double.NaN, 0).startsWith("the publisher had nothing acknowledged"),
        "a client that queued everything and sent nothing in the window");
  }
}
