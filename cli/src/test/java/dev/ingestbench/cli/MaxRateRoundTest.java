package dev.ingestbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.MaxRateResult;
import dev.ingestbench.contracts.PublisherResult;
import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code round --find-max-rate} through the real command, its emulators, its consumer and its paced
 * publisher: a search that can sustain nothing (a 100 ms SLO, which exactly-once's one-second
 * flushes always miss) must say so and exit 1, with every probe measured and every message it
 * published verified. The search that finds a rate is measured in docs/max-rate.md; its rules
 * (verdicts, bisection, the limit's name) are unit-tested in ProbeVerdictTest, RateBisectionTest
 * and SearchResultTest.
 */
@Tag("e2e")
@Timeout(value = 400, unit = TimeUnit.SECONDS)
class MaxRateRoundTest {
  @Test
  void aSearchThatSustainsNothingSaysSoExitsOneAndLosesNoMessage(
      @TempDir Path out, @TempDir Path logs) throws Exception {
    Path log = logs.resolve("round.log");
    Process round =
        IngestbenchProcess.start(
            log,
            "round",
            "--out",
            out.toString(),
            "--force",
            "--find-max-rate",
            "--latency-slo",
            "100ms",
            "--probe-duration",
            "5s",
            "--max-probes",
            "2",
            "--confirm-probes",
            "0",
            "--heap",
            "768m");
    assertTrue(round.waitFor(360, TimeUnit.SECONDS), "the search ended");
    String output = Files.readString(log);
    assertEquals(ExitCodes.INCOMPLETE, round.exitValue(), output);
    assertTrue(output.contains("No rate was sustained"), output);

    MaxRateResult r = RunJson.read(out.resolve(RunFiles.MAX_RATE_SEARCH), MaxRateResult.class);
    assertNull(r.maxSustainableRowsPerSecond());
    assertEquals(2, r.probes().size(), output);
    assertTrue(r.publisherCapacityMessagesPerSecond() > 0);
    for (MaxRateResult.Probe p : r.probes()) {
      // Cut short (more waiting than 100 ms of the rate) or judged on its p99: never sustained.
      assertTrue(
          !p.sustained()
              && (p.verdict().startsWith("cut short") || p.verdict().startsWith("latency")),
          p.verdict());
      assertTrue(p.publishedPerSecond() > 0 && !p.writtenSamples().isEmpty(), p.toString());
    }
    // 2,000 msg/s first, then lower: nothing was sustained.
    assertEquals(2_000, r.probes().get(0).askedPerSecond());
    assertTrue(r.probes().get(1).askedPerSecond() < 2_000);
    for (MaxRateResult.Probe p : r.probes()) {
      if (p.intended() == null) {
        // Cut short in its first second (a CI run on a loaded machine): no whole second of
        // intended send time was in its window, so there is no latency to judge.
        assertTrue(p.verdict().startsWith("cut short"), p.toString());
      } else {
        assertTrue(
            p.intended().p99Ms() > 100 && p.intended().maxMs() >= p.intended().p999Ms(),
            p.toString());
      }
    }

    assertEquals(0, r.bracketSustained());
    assertEquals(r.probes().get(1).askedPerSecond(), r.bracketNotSustained());
    // Every message the search published was written once, and the summary says the same.
    PublisherResult published =
        RunJson.read(out.resolve(RunFiles.PUBLISHER_LIVE), PublisherResult.class);
    RoundSummary summary = RunJson.read(out.resolve(RunFiles.SUMMARY), RoundSummary.class);
    assertTrue(published.published() > 10_000, String.valueOf(published.published()));
    assertEquals(published.published(), summary.published());
    assertEquals(published.published(), summary.written());
    assertEquals(0, summary.lost());
    assertEquals(0, summary.duplicates());
    assertNull(summary.maxSustainableRowsPerSecond());
    assertEquals(r.limitedBy(), summary.limitedBy());
    String report = Files.readString(out.resolve(RunFiles.REPORT));
    assertTrue(report.contains("## Highest sustained rate"), report);
    assertTrue(report.contains("**No rate was sustained** in 2 probes"), report);
    assertTrue(Files.size(out.resolve(RunFiles.MAX_RATE_CHART)) > 0);
  }
}
