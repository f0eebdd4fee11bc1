package dev.ingestbench.analysis.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.analysis.stats.Estimate;
import dev.ingestbench.contracts.ResultRecord;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A stage's cost per job: an hour at its steady rate, computed here by hand from its measures, its
 * labels and the price file (docs/cost.md), against the records the run writes.
 */
class StageCostTest {
  /** 10 steady seconds at 10,000 rows/s (5.6 MB/s) for 20 CPU-seconds: 5,000 rows a CPU-second. */
  private static StageMeasures measures() {
    List<Double> rates = java.util.Collections.nCopies(10, 10_000.0);
    return new StageMeasures(
        "a",
        0,
        10,
        10,
        rates,
        Estimate.of(rates),
        Estimate.of(java.util.Collections.nCopies(10, 5.6)),
        20,
        2,
        100_000,
        100_000);
  }

  @Test
  void aJobsHourInAStageIsItsWorkloadAtTheListPrices() {
    Map<String, String> labels =
        Map.of("message_size", "500", "write_method", "exactly-once", "source", "pubsub");
    Map<String, Double> m =
        new ResultRecords(new ResultRecords.Step("r", "s", "local", 1, "alone", "t"))
            .stage("a", measures(), 2, labels).records().stream()
                .collect(Collectors.toMap(ResultRecord::metric, ResultRecord::value));
    double vcpus = 10_000.0 / 5_000; // 2 vCPUs fully used, on n2-highcpu-8 (1 GB each)
    double read = 10_000.0 * 3600 * 500;
    double expected =
        vcpus * 0.069
            + vcpus * 1 * 0.003557
            + vcpus / 8 * 30 * 0.000054
            + read * 25 / 7 / 1e9 * 0.018
            + 5.6e6 * 3600 / Math.pow(2, 30) * 0.025
            + 2 * read / Math.pow(2, 40) * 40;
    assertEquals(expected, m.get("usd_per_hour"), 1e-9);
    assertEquals(expected / (10_000.0 * 3600) * 1e9, m.get("usd_per_billion_rows"), 1e-6);
  }

  @Test
  void noCostWithoutTheMessageSizeOrForAllJobsTogether() {
    ResultRecords r = new ResultRecords(new ResultRecords.Step("r", "s", "local", 1, "x", "t"));
    r.stage("a", measures(), 2, Map.of("write_method", "exactly-once"));
    r.stage(ResultRecord.ALL_JOBS, measures(), 2, Map.of("message_size", "500"));
    assertTrue(r.records().stream().noneMatch(x -> x.metric().startsWith("usd_")));
  }
}
