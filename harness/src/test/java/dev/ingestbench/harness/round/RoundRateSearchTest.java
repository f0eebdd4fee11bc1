package dev.ingestbench.harness.round;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.analysis.capacity.RateBisection;
import dev.ingestbench.contracts.MaxRateResult;
import dev.ingestbench.contracts.PublisherResult;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.harness.spec.MaxRateSpec;
import dev.ingestbench.scenario.StageKind.MaxRateSearch;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The max-rate search's rules on a simulated pipeline ({@link SimulatedPipeline}), whose clock
 * jumps ahead while the search waits: the answer it finds, the limit it names, and every way it
 * ends early, each in milliseconds instead of the minutes a round takes.
 */
class RoundRateSearchTest {
  private static final MaxRateSpec DEFAULTS =
      new MaxRateSpec(
          MaxRateSearch.DEFAULT_LATENCY_SLO,
          MaxRateSearch.DEFAULT_WINDOW,
          MaxRateSearch.DEFAULT_MAX_PROBES,
          MaxRateSearch.DEFAULT_CONFIRMATIONS);

  /** docs/max-rate.md: a rate is kept when every job wrote 95% of it. */
  private static final double KEPT_UP = 0.95;

  @TempDir Path out;
  private final List<String> lines = new CopyOnWriteArrayList<>();

  /** Runs the search to its end; its failure, or null. */
  private Exception search(SimulatedPipeline world) throws Exception {
    RoundRateSearch search = new RoundRateSearch(DEFAULTS, lines::add, world);
    search.measurePublisher(SimulatedPipeline.unreadTopic(), new TaxiRideGenerator(1, 500));
    search.start(world.round(out));
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (!search.finished() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertTrue(search.finished(), "the search ended: " + lines);
    search.close();
    if (search.failure() == null) {
      PublisherResult live =
          RunJson.read(out.resolve(RunFiles.PUBLISHER_LIVE), PublisherResult.class);
      assertEquals(search.published(), live.published(), "publisher_live.json is final");
    }
    return search.failure();
  }

  /**
   * A rate is kept when the jobs wrote {@link #KEPT_UP} of it, so the answer is the pipeline's
   * capacity within that share and the bisection's resolution; what the jobs wrote at it is the
   * capacity itself.
   */
  private static void assertAnswerNear(double capacity, MaxRateResult r) {
    assertNotNull(r.maxSustainableRowsPerSecond(), () -> "an answer: " + r);
    double answer = r.maxSustainableRowsPerSecond();
    assertTrue(
        answer >= capacity * (1 - RateBisection.RESOLUTION) && answer <= capacity / KEPT_UP,
        () -> "the answer " + answer + " near the capacity " + capacity + ": " + r);
    assertTrue(r.sustainedRowsPerSecond().mean() <= capacity, () -> "written: " + r);
  }

  private MaxRateResult result() throws Exception {
    return RunJson.read(out.resolve(RunFiles.MAX_RATE_SEARCH), MaxRateResult.class);
  }

  @Test
  void itFindsTheHighestRateThePipelineKeepsUpWithAndNamesTheConsumersCpu() throws Exception {
    assertNull(search(SimulatedPipeline.of(200_000, 5_000, "job-1")), () -> "" + lines);
    MaxRateResult r = result();
    assertNotNull(r.maxSustainableRowsPerSecond(), () -> "an answer: " + lines);
    assertAnswerNear(5_000, r);
    for (MaxRateResult.Probe p : r.probes()) {
      if (p.askedPerSecond() > 5_000 / KEPT_UP) {
        assertFalse(p.sustained(), () -> "above what the pipeline keeps up with: " + p);
      } else if (p.askedPerSecond() <= 5_000) {
        assertTrue(p.sustained(), () -> "at most the pipeline's capacity: " + p);
      }
    }
    assertEquals("consumer-cpu", r.limitedBy(), r.limitEvidence());
    assertEquals(200_000, r.publisherCapacityMessagesPerSecond(), 2_000);
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("Highest sustained rate:")), "" + lines);
  }

  @Test
  void aPublisherSlowerThanThePipelineIsNamedAsTheLimitNotThePipeline() throws Exception {
    assertNull(search(SimulatedPipeline.of(3_000, 50_000, "job-1")), () -> "" + lines);
    MaxRateResult r = result();
    assertEquals("publisher", r.limitedBy(), r.limitEvidence());
    assertTrue(
        r.maxSustainableRowsPerSecond() >= 2_000 && r.maxSustainableRowsPerSecond() <= 3_000,
        () -> "at most what the publisher sends: " + r);
  }

  @Test
  void rowsVisibleOnlyAfterTheSloSustainNoRateAndTheLatencyIsNamed() throws Exception {
    assertNull(
        search(new SimulatedPipeline(200_000, t -> 50_000, 20, 15_000, "job-1")), () -> "" + lines);
    MaxRateResult r = result();
    assertNull(r.maxSustainableRowsPerSecond(), () -> "no answer: " + r);
    assertEquals("latency", r.limitedBy(), r.limitEvidence());
    for (MaxRateResult.Probe p : r.probes()) {
      assertTrue(p.verdict().startsWith("latency"), p.verdict());
    }
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("No rate was sustained")), "" + lines);
  }

  @Test
  void jobsThatNeverWriteEndTheSearchAfterTheWarmUpWithTheReason() throws Exception {
    SimulatedPipeline world = new SimulatedPipeline(200_000, t -> 5_000, 100_000, 800, "job-1");
    Exception failure = search(world);
    assertNotNull(failure, "the search failed");
    assertTrue(
        failure.getMessage().contains("did not write the warm-up's messages within 5 minutes"),
        failure.getMessage());
    assertTrue(world.elapsed() >= 300, "it waited the warm-up's 5 minutes: " + world.elapsed());
  }

  @Test
  void jobsThatStopWritingAfterAProbeEndTheSearchWhenTheyDoNotCatchUp() throws Exception {
    // The jobs write 5,000 rows/s, then nothing from the third probe on (at 8,000 msg/s).
    SimulatedPipeline world =
        new SimulatedPipeline(200_000, t -> t < 100 ? 5_000 : 0, 20, 800, "job-1");
    Exception failure = search(world);
    assertNotNull(failure, "the search failed: " + lines);
    assertTrue(
        failure.getMessage().contains("did not catch up within 3 minutes"), failure.getMessage());
  }

  @Test
  void aPublisherThatFailsEndsTheSearchWithItsError() throws Exception {
    Exception failure = search(SimulatedPipeline.of(200_000, 5_000, "job-1").publisherFailsAt(70));
    assertNotNull(failure, "the search failed: " + lines);
    assertTrue(failure.getMessage().contains("simulated refusal"), failure.getMessage());
  }

  @Test
  void everyJobMustKeepUpSoTheSlowestDecidesAndIsNamed() throws Exception {
    assertNull(
        search(SimulatedPipeline.of(200_000, 5_000, "job-1", "job-2").slower("job-2", 0.6)),
        () -> "" + lines);
    MaxRateResult r = result();
    assertEquals(2, r.jobs());
    assertAnswerNear(3_000, r);
    for (MaxRateResult.Probe p : r.probes()) {
      if (!p.sustained()) {
        assertTrue(p.verdict().startsWith("job-2: "), p.verdict());
      }
    }
  }
}
