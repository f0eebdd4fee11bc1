package dev.ingestbench.analysis.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.analysis.report.RoundReport;
import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.job.TableCreation;
import dev.ingestbench.contracts.job.TableSkew;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The planner against the published rounds (shared/reference/published-rounds.md): round 2's three
 * jobs meet the regional quota, round 4 scales linearly and its connection counts fall within the
 * planned range.
 */
class PlannerTest {
  private static PlanRequest request(
      double rows, int size, String method, boolean pool, int tables, int jobs, String machine) {
    return new PlanRequest(
        rows,
        size,
        "json",
        "pubsub",
        "tablerow",
        "json-column",
        tables,
        method,
        pool,
        jobs,
        machine,
        1.0,
        PlanRequest.REGIONAL_QUOTA_MB_PER_SECOND);
  }

  @Test
  void round4IsItsOwnMeasurementAndScalesLinearlyWithJobs() {
    CapacityPlan one =
        Planner.plan(request(339_000, 500, "at-least-once", true, 1, 1, "n2-highcpu-8"));
    assertEquals(24.0, one.vcpusPerJob(), 1e-6, "its own measurement: 339k rows/s on 24 vCPUs");
    assertEquals(3, one.workersPerJob());
    assertTrue(one.perRow().measurement().startsWith("published round 4"));
    assertTrue(one.connectionsLow() <= 10 && 10 <= one.connectionsHigh(), "published: 10");
    CapacityPlan two =
        Planner.plan(request(339_000, 500, "at-least-once", true, 1, 2, "n2-highcpu-8"));
    assertEquals(one.vcpusPerJob(), two.vcpusPerJob(), 1e-9, "each job costs the same");
    assertEquals(2 * one.writeMbPerSecond(), two.writeMbPerSecond(), 1e-9);
    assertEquals(190.0, one.writeMbPerSecond(), 1e-6, "the round's own ~190 MB/s");
    assertTrue(two.connectionsLow() <= 25 && 25 <= two.connectionsHigh(), "published: 25");
    assertEquals(12, two.connectionsLow());
    assertEquals(120, two.connectionsHigh());
  }

  /** The limits many tables meet, each warned about where it applies and silent where not. */
  @Test
  void manyTablesWarnOfThePoolTheTableChecksAndTheStreamsEachWhereItApplies() {
    PlanRequest pooled = request(100_000, 500, "at-least-once", true, 1_000, 1, "n2-highcpu-8");
    List<String> w = Planner.plan(pooled).warnings();
    assertTrue(
        w.stream().anyMatch(x -> x.startsWith("Pool: 1,000 tables share at most 20")),
        w.toString());
    assertTrue(
        w.stream().anyMatch(x -> x.contains("--maxConnectionPoolConnections=1000,")), w.toString());
    assertTrue(
        w.stream().anyMatch(x -> x.startsWith("Tables: 1,000 made as the write")), w.toString());
    assertTrue(w.stream().noneMatch(x -> x.startsWith("Streams:")), "at-least-once opens none");

    PlanRequest ahead =
        new PlanRequest(
            100_000,
            500,
            "json",
            "pubsub",
            "tablerow",
            "json-column",
            1_000,
            "at-least-once",
            true,
            1,
            "n2-highcpu-8",
            1.0,
            PlanRequest.REGIONAL_QUOTA_MB_PER_SECOND,
            TableSkew.parse("--table-skew", "zipf:1.1"),
            TableCreation.AHEAD,
            1_000);
    List<String> none = Planner.plan(ahead).warnings();
    assertTrue(
        none.stream().noneMatch(x -> x.startsWith("Pool:") || x.startsWith("Tables:")),
        none.toString());
    CapacityPlan aheadPlan = Planner.plan(ahead);
    assertEquals(
        1_000L * aheadPlan.workersPerJob(),
        aheadPlan.connectionsHigh(),
        "the pool's 1,000 a worker");

    List<String> exactly =
        Planner.plan(request(100_000, 500, "exactly-once", false, 100, 1, "n2-highcpu-8"))
            .warnings();
    assertTrue(
        exactly.stream().anyMatch(x -> x.startsWith("Streams: exactly-once opens about 2,000")),
        exactly.toString());
    List<String> few =
        Planner.plan(request(100_000, 500, "exactly-once", false, 4, 1, "n2-highcpu-8")).warnings();
    assertTrue(
        few.stream().noneMatch(x -> x.startsWith("Streams:") || x.startsWith("Tables:")),
        few.toString());
  }

  @Test
  void round2sThreeJobsOf10KbMessagesMeetTheRegionalQuota() {
    // Round 1 measured ~160 MB/s per job alone with ~10 KB messages: ~15,900 rows of ~10,060 B.
    CapacityPlan p =
        Planner.plan(request(15_900, 10_000, "exactly-once", false, 1, 3, "n2-standard-4"));
    assertEquals(480.0, p.writeMbPerSecond(), 0.5);
    assertEquals(477.0, p.sourceMbPerSecond(), 1e-9);
    assertEquals(1.53, p.quotaShare(), 0.01);
    assertTrue(
        p.warnings().stream().anyMatch(w -> w.startsWith("Quota:") && w.contains("throttled")),
        p.warnings().toString());
    String md =
        PlanMarkdown.of(
            p,
            dev.ingestbench.analysis.cost.PlanCost.of(
                p, dev.ingestbench.analysis.cost.PriceFile.builtIn(), "us-central1"));
    assertTrue(md.contains("153% of 314.57 MB/s"), md);
  }

  @Test
  void withoutThePoolConnectionsAreTablesTimesWorkersTimesJobsAndThePoolIsTheFix() {
    CapacityPlan p =
        Planner.plan(request(339_000, 500, "at-least-once", false, 8, 2, "n2-highcpu-8"));
    assertEquals(8 * 3 * 2, p.connectionsLow());
    assertEquals(p.connectionsLow(), p.connectionsHigh(), "exact, not a range");
    CapacityPlan many =
        Planner.plan(request(339_000, 500, "at-least-once", false, 200, 2, "n2-highcpu-8"));
    assertTrue(
        many.warnings().stream()
            .anyMatch(w -> w.startsWith("Connections: 1,200") && w.contains("--connection-pool")),
        many.warnings().toString());
  }

  @Test
  void theRowEncodingMovesThePerRowCostByWhatJmhMeasured() {
    PlanRequest json = request(100_000, 500, "at-least-once", false, 1, 1, "n2-highcpu-8");
    double base = Planner.perRow(json).microsPerRow();
    PlanRequest proto =
        new PlanRequest(
            100_000,
            500,
            "json",
            "pubsub",
            "proto",
            "typed",
            1,
            "at-least-once",
            false,
            1,
            "n2-highcpu-8",
            1.0,
            314.5728);
    assertEquals(base - (3.67 - 1.18), Planner.perRow(proto).microsPerRow(), 1e-9);
    PlanRequest large = request(100_000, 10_000, "at-least-once", false, 1, 1, "n2-highcpu-8");
    assertEquals(base + (13.55 - 3.67), Planner.perRow(large).microsPerRow(), 1e-9);
  }

  @Test
  void avroPlansFromTheAvroRoundsAndSaysWhatItDoesNotApply() {
    PlanRequest avro =
        new PlanRequest(
            400_000,
            88,
            "avro",
            "kafka",
            "tablerow",
            "json-column",
            4,
            "at-least-once",
            true,
            1,
            "n2-highcpu-8",
            0.8,
            314.5728);
    PerRowCost cost = Planner.perRow(avro);
    assertTrue(cost.measurement().startsWith("published round 6"), cost.measurement());
    assertTrue(cost.adjustment().contains("not applied"), cost.adjustment());
  }

  @Test
  void aRoundOfTheUsersOwnIsTheMeasurementWhenGiven(@TempDir Path dir) throws Exception {
    Path round = Path.of("src/test/resources/recorded/round-default");
    try (Stream<Path> files = Files.list(round)) {
      for (Path f : files.toList()) {
        Files.copy(f, dir.resolve(f.getFileName().toString()));
      }
    }
    RoundSummary summary = RoundReport.write(dir);
    PerRowCost cost = Planner.measuredBy(dir);
    assertEquals(1e6 / summary.rowsPerCpuSecond(), cost.microsPerRow(), 1e-9);
    assertTrue(cost.measurement().contains("this machine's local runner, not a Dataflow worker"));
    CapacityPlan p =
        Planner.plan(request(100_000, 500, "exactly-once", false, 1, 1, "n2-highcpu-8"), cost);
    assertEquals(100_000 * cost.microsPerRow() / 1e6, p.vcpusPerJob(), 1e-9);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> Planner.measuredBy(dir.resolve("nothing")));
    assertTrue(e.getMessage().contains("is not a round's directory"), e.getMessage());
  }

  @Test
  void badInputNamesTheFlagAndTheFix() {
    assertEquals(
        "--machine-type big is not a Compute Engine machine type with its vCPUs at the end, e.g."
            + " n2-highcpu-8",
        assertThrows(
                IllegalArgumentException.class,
                () -> Planner.plan(request(1_000, 500, "exactly-once", false, 1, 1, "big")))
            .getMessage());
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> Planner.plan(request(1_000, 500, "exactly-once", true, 1, 1, "n2-highcpu-8")))
            .getMessage()
            .contains("add --write-method at-least-once"));
    assertTrue(
        assertThrows(
                IllegalArgumentException.class,
                () -> Planner.plan(request(0, 500, "exactly-once", false, 1, 1, "n2-highcpu-8")))
            .getMessage()
            .startsWith("--rows-per-second 0 must be above 0"));
  }
}
