package dev.ingestbench.analysis.cost;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.analysis.plan.CapacityPlan;
import dev.ingestbench.analysis.plan.PlanMarkdown;
import dev.ingestbench.analysis.plan.PlanRequest;
import dev.ingestbench.analysis.plan.Planner;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The plan's month, each line computed here by hand from the plan's figures and the price file's
 * prices (docs/cost.md's formulas), against what the cost model computes.
 */
class PlanCostTest {
  private static final double MONTH_SECONDS = 730 * 3600.0;

  /** README's plan: round 4's two jobs, 339,000 rows/s of 500 B each, at-least-once, the pool. */
  private static CapacityPlan round4TwoJobs() {
    return Planner.plan(
        new PlanRequest(
                339_000,
                500,
                "json",
                "pubsub",
                "tablerow",
                "json-column",
                1,
                "at-least-once",
                true,
                2,
                "n2-highcpu-8",
                0.8,
                PlanRequest.REGIONAL_QUOTA_MB_PER_SECOND)
            .validate());
  }

  @Test
  void everyLineIsItsQuantityTimesItsPriceAsDocsCostMdComputesIt() {
    CapacityPlan p = round4TwoJobs();
    // The plan: 30 vCPUs a job at 80% (round 4 measured 24 at 100%), so 4 n2-highcpu-8 each.
    assertEquals(4, p.workersPerJob());
    assertEquals(380.0, p.writeMbPerSecond(), 1e-6);
    assertEquals(339.0, p.sourceMbPerSecond(), 1e-6);
    WorkloadCost cost = PlanCost.of(p, PriceFile.builtIn(), "us-central1");
    Map<String, Double> usd =
        cost.lines().stream().collect(Collectors.toMap(CostLine::name, CostLine::usd));
    assertEquals(8 * 8 * 730 * 0.069, usd.get("Worker vCPUs"), 1e-6);
    assertEquals(8 * 8 * 1 * 730 * 0.003557, usd.get("Worker memory"), 1e-6);
    assertEquals(8 * 30 * 730 * 0.000054, usd.get("Worker disk"), 1e-6);
    assertEquals(
        380e6 * MONTH_SECONDS / Math.pow(2, 30) * 0.025,
        usd.get("Storage Write API ingestion"),
        1e-6);
    assertEquals(
        339e6 / 2 * MONTH_SECONDS / Math.pow(2, 40) * 40, usd.get("Pub/Sub publish"), 1e-6);
    assertEquals(339e6 * MONTH_SECONDS / Math.pow(2, 40) * 40, usd.get("Pub/Sub delivery"), 1e-6);
    assertEquals(
        List.of("Streaming Engine (data processed)", "Streaming Engine (compute units)"),
        cost.notEstimated(),
        "at-least-once's Streaming Engine is said, not guessed");
    double total =
        8 * 8 * 730 * 0.069
            + 8 * 8 * 730 * 0.003557
            + 8 * 30 * 730 * 0.000054
            + 380e6 * MONTH_SECONDS / Math.pow(2, 30) * 0.025
            + 339e6 * 1.5 * MONTH_SECONDS / Math.pow(2, 40) * 40;
    assertEquals(total, cost.usd(), 1e-6);
    assertEquals(total - 2048 * 0.025 - 10.0 / 1024 * 40, cost.usdAfterFreeTiers(), 1e-6);

    String md = PlanMarkdown.of(p, cost);
    assertTrue(md.contains("## What it costs"), md);
    assertTrue(md.contains("| Storage Write API, free each month per billing account |"), md);
    assertTrue(
        md.contains(
            "not in the total: Streaming Engine (data processed), Streaming Engine (compute units)"),
        md);
    assertTrue(
        md.contains(
            "https://cloud.google.com/dataflow/docs/cuds (dated 2026-03-03, read 2026-11-28)"),
        md);
  }

  @Test
  void exactlyOnceChargesStreamingEngineForWhatItShuffles() {
    CapacityPlan p =
        Planner.plan(
            new PlanRequest(
                    100_000,
                    500,
                    "json",
                    "pubsub",
                    "tablerow",
                    "json-column",
                    1,
                    "exactly-once",
                    false,
                    1,
                    "n2-standard-4",
                    0.8,
                    PlanRequest.REGIONAL_QUOTA_MB_PER_SECOND)
                .validate());
    WorkloadCost cost = PlanCost.of(p, PriceFile.builtIn(), "us-central1");
    CostLine se =
        cost.lines().stream()
            .filter(l -> l.name().equals("Streaming Engine (data processed)"))
            .findFirst()
            .orElseThrow();
    assertEquals(50e6 * MONTH_SECONDS * 25 / 7 / 1e9 * 0.018, se.usd(), 1e-6);
    CostLine memory =
        cost.lines().stream()
            .filter(l -> l.name().equals("Worker memory"))
            .findFirst()
            .orElseThrow();
    assertEquals(
        p.workersPerJob() * 4 * 4 * 730.0, memory.quantity(), 1e-9, "n2-standard: 4 GB a vCPU");
  }

  @Test
  void aRegionWithoutPricesIsRefusedAndAMachineWithoutKnownMemoryLeavesItOut() {
    CapacityPlan p = round4TwoJobs();
    IllegalArgumentException region =
        assertThrows(
            IllegalArgumentException.class,
            () -> PlanCost.of(p, PriceFile.builtIn(), "asia-southeast1"));
    assertTrue(
        region.getMessage().contains("in asia-southeast1 (its regions:"), region.getMessage());
    assertTrue(Double.isNaN(MachineMemory.gbPerVcpu("n2-custom-8")), "not known: not guessed");
    assertEquals(2, MachineMemory.gbPerVcpu("c3-highcpu-8"));
    assertEquals(1, MachineMemory.gbPerVcpu("n2-highcpu-8"));
    assertFalse(PriceFile.builtIn().regions().contains("asia-southeast1"));
  }
}
