package dev.ingestbench.analysis.scenario;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.RunFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scenario report of recorded runs, rebuilt from their raw files as {@code run} writes it. */
class ScenarioReportTest {
  private static final Path RECORDED = Path.of("src", "test", "resources", "recorded");

  @Test
  void aStagedRunHasItsStagesMeasuresComparisonsDiagnosisAndVerification(@TempDir Path dir)
      throws IOException {
    String md = report("scenario-staged-two-jobs", dir);
    assertTrue(md.startsWith("# Scenario `recorded-staged`\n\n"), md);
    assertTrue(md.contains("| 01 | a-alone | hold 45s | yes |"), md);
    assertTrue(md.contains("| 03 | b-alone | until drained (max 4m) | yes |"), md);
    assertTrue(
        md.contains("|:---|:---|---:|:---|---:|---:|---:|---:|---:|---:|\n| a-alone | a | "),
        "per stage and job, numbers right-aligned: " + md);
    assertTrue(md.contains("## Between stages"), md);
    assertTrue(md.contains("| **all jobs** | a-alone → a-and-b |"), md);
    assertTrue(md.contains("## Diagnosis\n\nThe rules of docs/methodology.md"), md);
    assertTrue(md.contains("| a | a-and-b | 40,000 | 35,439 | 0 | 0 | 0 | 4,561 | n/a | 0 |"), md);
    assertTrue(md.contains("| b | b-alone | 40,000 | 40,000 | 0 | 0 | 0 | 0 | n/a | 0 |"), md);
    assertTrue(Files.exists(dir.resolve("throughput.svg")), "the throughput chart");
    assertTrue(Files.exists(dir.resolve("connections.svg")), "the connections chart");
  }

  @Test
  void aJobThatWroteNothingIsSaidSoAndNotCompared(@TempDir Path dir) throws IOException {
    String md = report("scenario-staged-one-job-starting", dir);
    assertTrue(
        md.contains("| a-alone | a | — | no rows (starting up, or nothing to read) | | | "),
        "an empty cell is one space, as the report always had it: " + md);
    assertTrue(
        md.contains(
            "| n/a | n/a | not compared: no rows in one of them (a job starting up writes none) |"),
        md);
    assertTrue(md.contains("| a | a-and-b | 40,000 | 2 | 0 | 0 | 0 | 39,998 | n/a | 0 |"), md);
  }

  /** A local run's first line says how fast the machine was that day; an older run.json's none. */
  @Test
  void theMachinesSpeedThatDayIsOnTheFirstLine(@TempDir Path dir, @TempDir Path older)
      throws IOException {
    Path run = RECORDED.resolve("scenario-staged-two-jobs").resolve(RunFiles.SCENARIO_RUN);
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    com.fasterxml.jackson.databind.node.ObjectNode tree =
        (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(run.toFile());
    com.fasterxml.jackson.databind.node.ObjectNode speed = tree.putObject("machine_calibration");
    speed.put("workload", "generate 100,000 JSON taxi-ride messages of 500 B on one thread");
    speed.put("operations", 100_000);
    speed.put("repetitions", 3);
    speed.put("best_seconds", 0.25);
    speed.put("operations_per_second", 400_000.0);
    String md = reportWith("scenario-staged-two-jobs", dir, json.writeValueAsString(tree));
    assertTrue(md.contains(" · this machine that day: 400,000 operations/s (generate"), md);
    assertTrue(
        !report("scenario-staged-two-jobs", older).contains("this machine that day"),
        "a run.json from before the calibration says none");
  }

  /** The first line names the runner the jobs ran on, as their results are labelled. */
  @Test
  void theFirstLineNamesTheJobsRunner(@TempDir Path dir, @TempDir Path older) throws IOException {
    report("scenario-staged-two-jobs", dir);
    Path results = dir.resolve(RunFiles.RESULTS);
    Files.writeString(
        results,
        Files.readString(results)
            .replace("\"labels\":{", "\"labels\":{\"runner\":\"DirectRunner\","));
    String md = Files.readString(ScenarioReport.write(dir));
    assertTrue(md.contains("· target local (DirectRunner) · scale"), md);
    assertTrue(
        report("scenario-staged-two-jobs", older).contains("· target local · scale"),
        "results labelled before the runner was name none");
  }

  private static String reportWith(String recorded, Path dir, String runJson) throws IOException {
    report(recorded, dir);
    Files.writeString(dir.resolve(RunFiles.SCENARIO_RUN), runJson);
    return Files.readString(ScenarioReport.write(dir).resolveSibling(RunFiles.REPORT));
  }

  /** The recorded run copied to {@code dir}, its report written there, and that report. */
  private static String report(String recorded, Path dir) throws IOException {
    Path from = RECORDED.resolve(recorded);
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : files.toList()) {
        Path to = dir.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(to);
        } else {
          Files.copy(f, to);
        }
      }
    }
    return Files.readString(ScenarioReport.write(dir).resolveSibling(RunFiles.REPORT));
  }
}
