package dev.ingestbench.analysis.summary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.analysis.report.RecordedRounds;
import dev.ingestbench.analysis.report.RoundReport;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.ScenarioRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ingestbench summary}: a real recorded round and a scenario run's results, each read back
 * into rows whose every figure is the run's own.
 */
class RunsSummaryTest {
  private static final Path RECORDED = Path.of("src/test/resources/recorded/round-default");
  private static final Path SHIPPED = Path.of("..", "scenarios");

  @TempDir Path root;

  @Test
  void aRoundIsOneRowWithItsOwnFigures() throws Exception {
    Path round = RecordedRounds.copy(RECORDED, root.resolve("round"));
    RoundSummary summary = RoundReport.write(round);
    List<RunRow> rows = RunsSummary.read(List.of(round));
    assertEquals(1, rows.size());
    RunRow r = rows.get(0);
    assertEquals("round", r.kind());
    assertEquals("pubsub", r.source());
    assertEquals(summary.rowsPerSecond(), r.outputRowsPerSecond());
    assertEquals(summary.rowsPerSecondEstimate().ci95Low(), r.outputCi95Low());
    assertEquals(summary.measured().vcpus(), r.vcpus());
    assertEquals(summary.liveP99LatencyMs(), r.latencyP99Ms());
    assertEquals(summary.lost() == 0 ? "passed" : "failed", r.verification().split(":")[0]);
    String md = RunsSummary.markdown(rows);
    assertTrue(
        md.contains("| " + round + " | round / round / consumer | pubsub → bigquery-emulator |"),
        md);
  }

  /**
   * A row says how fast its machine was as the run began, so rows of different days can be read
   * side by side; a round recorded before the calibration existed says nothing.
   */
  @Test
  void aRowSaysHowFastItsMachineWasThatDay() throws Exception {
    Path today =
        RecordedRounds.copy(RECORDED.resolveSibling("round-live-kept-up"), root.resolve("today"));
    RoundReport.write(today);
    Path older = RecordedRounds.copy(RECORDED, root.resolve("older"));
    RoundReport.write(older);
    List<RunRow> rows = RunsSummary.read(List.of(today, older));
    assertEquals(907_027, rows.get(0).machineOpsPerSecond(), 1);
    assertEquals(null, rows.get(1).machineOpsPerSecond());
    String md = RunsSummary.markdown(rows);
    assertTrue(md.contains("| 2g | 907,027 ops/s | 1,000 |"), md);
    assertTrue(md.contains("| — | 10,000 |"), md);
  }

  @Test
  void aScenarioIsARowPerJobAndStageWithItsVerdictWhereItWasJudged() throws Exception {
    Path run = scenario(root.resolve("savepoint"), 0, 0);
    List<RunRow> rows = RunsSummary.read(List.of(run));
    assertEquals(2, rows.size(), "a stage's sum over jobs is not a row: " + rows);
    RunRow writing = rows.get(0);
    assertEquals("writing", writing.stage());
    assertEquals(1_872.0, writing.outputRowsPerSecond());
    assertEquals(250.0, writing.inputRowsPerSecond(), "the scenario's live rate");
    assertNull(writing.verification(), "a is judged in its last stage only");
    RunRow restored = rows.get(1);
    assertEquals("passed", restored.verification());
    assertEquals("Flink cluster", restored.runner());
    assertEquals(500, restored.messageSizeBytes());
    assertEquals(2, restored.vcpus());
  }

  @Test
  void lostMessagesAndExactlyOnceDuplicatesFailTheRow() throws Exception {
    Path run = scenario(root.resolve("cancel"), 1, 2_307);
    assertEquals(
        "failed: lost 1, 2,307 duplicates", RunsSummary.read(List.of(run)).get(1).verification());
  }

  @Test
  void aDirectoryOfRunsStandsForEachAndOneWithoutRunsIsRefusedWithTheFix() throws Exception {
    scenario(root.resolve("runs/b"), 0, 0);
    scenario(root.resolve("runs/a"), 1, 0);
    List<RunRow> rows = RunsSummary.read(List.of(root.resolve("runs")));
    assertEquals(4, rows.size());
    assertTrue(rows.get(0).run().endsWith("a"), "sorted by name");
    Files.createDirectories(root.resolve("empty"));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> RunsSummary.read(List.of(root.resolve("empty"))));
    assertTrue(e.getMessage().contains("holds no run"), e.getMessage());
    assertTrue(
        e.getMessage().contains("give the --out of ingestbench round or run"), e.getMessage());
  }

  @Test
  void theTableIsAlsoWrittenAsMarkdownAndJson() throws Exception {
    Path run = scenario(root.resolve("s"), 0, 0);
    RunsSummary.write(root.resolve("out"), RunsSummary.read(List.of(run)));
    assertTrue(
        Files.readString(root.resolve("out/runs-summary.md")).contains("| 1,872 (1,227–2,516) |"));
    String json = Files.readString(root.resolve("out/runs-summary.json"));
    assertTrue(json.contains("\"output_rows_per_second\" : 8144.0"), json);
  }

  @Test
  void aMaxRateStageShowsItsAnswerAndItsLimit() throws Exception {
    Path dir = root.resolve("max-rate");
    Files.createDirectories(dir);
    Files.copy(SHIPPED.resolve("max-rate-write-methods.yaml"), dir.resolve(RunFiles.SCENARIO));
    RunJson.write(
        dir.resolve(RunFiles.SCENARIO_RUN),
        new ScenarioRun(
            "r-2", "max-rate-write-methods", "local", 1, "sha", "t", "AMD EPYC", 2, Map.of()));
    Map<String, String> labels =
        Map.of("write_method", "at-least-once", "limited_by", "consumer-cpu");
    StringBuilder lines = new StringBuilder();
    for (ResultRecord r :
        List.of(
            record(
                "at-least-once-max",
                "at-least-once",
                "max_sustainable_rows_per_second",
                8_000,
                labels),
            record("at-least-once-max", "at-least-once", "max_rate_probes", 10, labels),
            record("at-least-once-max", "at-least-once", "lost", 0, labels))) {
      lines.append(RunJson.toJsonLine(r)).append('\n');
    }
    Files.writeString(dir.resolve(RunFiles.RESULTS), lines);
    RunRow row = RunsSummary.read(List.of(dir)).get(0);
    assertEquals(8_000.0, row.maxSustainableRowsPerSecond());
    assertEquals("consumer-cpu", row.limitedBy());
    assertEquals("passed", row.verification());
    String md = RunsSummary.markdown(List.of(row));
    assertTrue(md.contains("| probed |") && md.contains("| 8,000 (consumer-cpu) |"), md);
  }

  /**
   * A local scenario's runner is its jobs' runner label; runs labelled before it: embedded Flink.
   */
  @Test
  void aLocalScenarioSaysItsJobsRunner() throws Exception {
    Path direct = scenario(root.resolve("direct"), 0, 0, "local", Map.of("runner", "DirectRunner"));
    assertEquals("DirectRunner (embedded)", RunsSummary.read(List.of(direct)).get(1).runner());
    Path older = scenario(root.resolve("older"), 0, 0, "local", Map.of());
    assertEquals("FlinkRunner (embedded)", RunsSummary.read(List.of(older)).get(1).runner());
  }

  private static Path scenario(Path dir, long lost, long duplicates) throws IOException {
    return scenario(dir, lost, duplicates, "flink", Map.of());
  }

  /**
   * A scenario run of the shipped savepoint-restore.yaml, as {@code run} leaves it, on {@code
   * target}, its jobs' labels with {@code more}.
   */
  private static Path scenario(
      Path dir, long lost, long duplicates, String target, Map<String, String> more)
      throws IOException {
    Files.createDirectories(dir);
    Files.copy(SHIPPED.resolve("savepoint-restore.yaml"), dir.resolve(RunFiles.SCENARIO));
    RunJson.write(
        dir.resolve(RunFiles.SCENARIO_RUN),
        new ScenarioRun(
            "r-1",
            "savepoint-restore",
            target,
            1,
            "sha",
            "2026-11-26T21:04:18Z",
            "AMD EPYC",
            2,
            Map.of()));
    Map<String, String> labels =
        new java.util.HashMap<>(Map.of("write_method", "exactly-once", "message_size", "500"));
    labels.putAll(more);
    List<ResultRecord> records = new ArrayList<>();
    records.add(record("writing", "a", "rows_per_second", 1_872, labels));
    records.add(record("writing", "a", "rows_per_second_ci95_low", 1_227, labels));
    records.add(record("writing", "a", "rows_per_second_ci95_high", 2_516, labels));
    records.add(record("writing", ResultRecord.ALL_JOBS, "rows_per_second", 1_872, labels));
    records.add(record("restored", "a", "rows_per_second", 8_144, labels));
    records.add(record("restored", "a", "published", 37_500, labels));
    records.add(record("restored", "a", "duplicates", duplicates, labels));
    records.add(record("restored", "a", "lost", lost, labels));
    StringBuilder lines = new StringBuilder();
    for (ResultRecord r : records) {
      lines.append(RunJson.toJsonLine(r)).append('\n');
    }
    Files.writeString(dir.resolve(RunFiles.RESULTS), lines);
    return dir;
  }

  private static ResultRecord record(
      String stage, String job, String metric, double value, Map<String, String> labels) {
    return new ResultRecord(
        "r-1", "savepoint-restore", "flink", 1, stage, job, metric, value, "", labels, "t");
  }
}
