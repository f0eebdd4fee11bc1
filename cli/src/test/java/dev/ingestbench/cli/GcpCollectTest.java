package dev.ingestbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.analysis.diagnosis.Diagnoser;
import dev.ingestbench.analysis.diagnosis.Verdict;
import dev.ingestbench.contracts.DataflowJobRecord;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.contracts.StepStatus;
import dev.ingestbench.contracts.StopMode;
import dev.ingestbench.dataflow.GcpCollect;
import dev.ingestbench.dataflow.GcpSettings;
import dev.ingestbench.harness.staged.RunDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After a Dataflow run of two 5-minute stages (a alone, then a and b), the real BigQuery and
 * Monitoring clients read the stand-ins' timeline (1,000 rows/s in every minute, so adding b added
 * nothing) and series; the collect step's per-stage figures and the timeline's diagnosis follow.
 */
class GcpCollectTest {
  @Test
  void perStageTableFiguresAndTheTimelinesDiagnosis(@TempDir Path out, @TempDir Path scenarios)
      throws Exception {
    try (BigQueryStandIn bigquery = new BigQueryStandIn();
        MonitoringStandIn monitoring = new MonitoringStandIn()) {
      GcpSettings target =
          new GcpSettings(
              "ingestbench-test",
              "asia-southeast1",
              "test-bucket",
              "ingestbench",
              "taxi_rides",
              StopMode.CANCEL,
              Duration.ofSeconds(30),
              "http://unused/",
              bigquery.url(),
              monitoring.url(),
              "",
              false);
      RunDirectory dir = new RunDirectory(out);
      Path scenario = Files.writeString(scenarios.resolve("s.yaml"), "name: s\n");
      ScenarioRun run =
          new ScenarioRun(
              "s-1",
              "s",
              "dataflow",
              1,
              "sha",
              "2026-11-23T10:00:00Z",
              "Dataflow asia-southeast1",
              0,
              null);
      dir.start(run, scenario);
      Instant t0 =
          Instant.now()
              .truncatedTo(ChronoUnit.MINUTES)
              .minus(12, ChronoUnit.MINUTES)
              .plusSeconds(20);
      dir.finish(
          new StepStatus(
              "01-a-alone",
              "a-alone",
              1,
              List.of("a"),
              List.of("a"),
              List.of(),
              "hold 5m",
              true,
              t0.toString(),
              t0.plusSeconds(300).toString(),
              1),
          List.of());
      dir.finish(
          new StepStatus(
              "02-a-and-b",
              "a-and-b",
              1,
              List.of("a", "b"),
              List.of("b"),
              List.of(),
              "hold 5m",
              true,
              t0.plusSeconds(300).toString(),
              t0.plusSeconds(600).toString(),
              1),
          List.of());
      List<DataflowJobRecord> jobs =
          List.of(
              new DataflowJobRecord(
                  1,
                  "a",
                  "a-alone",
                  "s-1-s1-a",
                  "id-a",
                  t0.minusSeconds(60).toString(),
                  t0.plusSeconds(600).toString(),
                  "JOB_STATE_CANCELLED"),
              new DataflowJobRecord(
                  1,
                  "b",
                  "a-and-b",
                  "s-1-s1-b",
                  "id-b",
                  t0.plusSeconds(240).toString(),
                  t0.plusSeconds(600).toString(),
                  "JOB_STATE_CANCELLED"));

      new GcpCollect(target, dir, run, new Diagnoser.Topology(1, 3, 2, true, 0))
          .collect(List.of("taxi_rides"), jobs);

      List<ResultRecord> results = dir.readResults();
      assertEquals(1_000, value(results, "a-alone", "bigquery_rows_per_second"), 1e-9);
      assertEquals(
          4,
          value(results, "a-alone", "bigquery_minutes"),
          "whole minutes inside 10:00:20-10:05:20");
      assertEquals(
          0.5, value(results, "a-and-b", "bigquery_mb_per_second"), 1e-9, "30 MB a minute");
      assertEquals(7, value(results, "a-and-b", "monitoring_peak_connections"));
      assertEquals(
          10.0,
          results.stream()
              .filter(r -> r.job().equals("a") && r.metric().equals("monitoring_vcpus_busy"))
              .findFirst()
              .orElseThrow()
              .value(),
          1e-9,
          "600 vCPU-seconds a minute");
      List<Verdict> verdicts =
          Arrays.asList(RunJson.read(out.resolve("gcp_diagnosis.json"), Verdict[].class));
      assertTrue(
          verdicts.stream()
              .anyMatch(
                  v ->
                      v.verdict().contains("contention")
                          && v.evidence().contains("a-and-b: 2 (the scenario's stage plan)")
                          && v.evidence().contains("the per-writer rate ×0.50")),
          "b added nothing: " + verdicts);
      assertTrue(
          Files.readString(out.resolve("monitoring.csv")).contains(",vcpu_seconds,a,600.000"));
      String query = bigquery.queries.get(0).toString();
      assertTrue(query.contains("taxi_rides") && query.contains("asia-southeast1"), query);
    }
  }

  private static double value(List<ResultRecord> results, String stage, String metric) {
    return results.stream()
        .filter(
            r ->
                r.stage().equals(stage)
                    && r.job().equals(ResultRecord.ALL_JOBS)
                    && r.metric().equals(metric))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + metric + " in " + stage))
        .value();
  }
}
