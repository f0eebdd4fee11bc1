package dev.ingestbench.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.RunCost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A recorded round's cost, computed here by hand from its files and the price file's prices
 * (docs/cost.md), against what summary.json says.
 */
class RoundCostTest {
  private static final Path ROUND = Path.of("src/test/resources/recorded/round-default");

  @Test
  void theDefaultRoundsRunCostsWhatItsFilesAndThePricesMakeByHand() throws Exception {
    RoundAnalysis a = RoundAnalysis.of(ROUND);
    // From its files: 300,000 rows written exactly-once (consumer_result.json), messages of 500 B
    // (round.json), one job on Pub/Sub; the bytes the BigQuery emulator counted, summed here.
    long rows = 300_000;
    double size = 500;
    double written = 0;
    List<String> lines = Files.readAllLines(ROUND.resolve("write_api_timeline_per_second.csv"));
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",");
      written += Double.parseDouble(f[9]);
    }
    // The one measured input: rows per consumer CPU-second over the steady window.
    double perCpuSecond = a.rowsPerCpuSecond();
    double vcpuHours = rows / perCpuSecond / 3600;

    RunCost cost = RoundSummaryJson.of(a).cost();
    Map<String, Double> usd =
        cost.components().stream()
            .filter(c -> c.usd() != null)
            .collect(Collectors.toMap(RunCost.Component::name, RunCost.Component::usd));
    assertEquals(vcpuHours * 0.069, usd.get("Worker vCPUs"), 1e-12);
    assertEquals(vcpuHours * 1 * 0.003557, usd.get("Worker memory"), 1e-12);
    assertEquals(vcpuHours / 8 * 30 * 0.000054, usd.get("Worker disk"), 1e-12);
    assertEquals(
        rows * size * 25 / 7 / 1e9 * 0.018, usd.get("Streaming Engine (data processed)"), 1e-12);
    assertEquals(written / Math.pow(2, 30) * 0.025, usd.get("Storage Write API ingestion"), 1e-12);
    assertEquals(rows * size / Math.pow(2, 40) * 40, usd.get("Pub/Sub publish"), 1e-12);
    assertEquals(rows * size / Math.pow(2, 40) * 40, usd.get("Pub/Sub delivery"), 1e-12);
    double total = usd.values().stream().mapToDouble(Double::doubleValue).sum();
    assertEquals(total, cost.usdPerRun(), 1e-12);
    assertEquals(total / rows * 1e9, cost.usdPerBillionRows(), 1e-9);
    assertEquals("us-central1", cost.region());
    assertEquals(List.of("Streaming Engine (compute units)"), cost.notEstimated());
    // Free tiers are lines of their own, never taken off the run's figure, and a run of seconds
    // gets its share of a month's: 2,048 GiB × hours / 730.
    assertEquals(2, cost.freeTiers().size());
    double hours = a.activeSeconds() / 3600.0;
    assertEquals(
        -Math.min(written / Math.pow(2, 30), 2048 * hours / 730) * 0.025,
        cost.freeTiers().get(0).usd(),
        1e-12);

    // An hour at the steady rate, by hand from the steady window's rows/s and MB/s.
    double rate = a.steadyRowsPerSecond().mean();
    double busy = rate / perCpuSecond;
    double read = rate * 3600 * size;
    double hour =
        busy * 0.069
            + busy * 0.003557
            + busy / 8 * 30 * 0.000054
            + read * 25 / 7 / 1e9 * 0.018
            + a.steadyMbPerSecond().mean() * 1e6 * 3600 / Math.pow(2, 30) * 0.025
            + 2 * read / Math.pow(2, 40) * 40;
    assertEquals(hour, cost.usdPerHour(), 1e-9);
    RunCost.Component vcpus = cost.components().get(0);
    assertEquals("vcpu-hour", vcpus.unit());
    assertEquals("https://cloud.google.com/dataflow/docs/cuds", vcpus.source());
    assertEquals("2026-03-03", vcpus.sourceDate());
  }

  @Test
  void aConsumersRunAloneOrOneJobOfSeveralHasNoCostOfItsOwn() throws Exception {
    RoundSummary job =
        RoundSummaryJson.of(
            RoundAnalysis.of(
                Path.of("src/test/resources/recorded/round-kafka-two-jobs-fed/job-1")));
    assertNull(job.cost(), "the round's summary.json has it");
  }
}
