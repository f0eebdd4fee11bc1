package dev.ingestbench.cli.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.StepStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Markers and results stay consistent whatever point a run was killed at. */
class RunDirectoryTest {

  private static StepStatus step(String marker, String stage, int iteration) {
    return new StepStatus(marker, stage, iteration, List.of("a"), List.of("a"), List.of(), "hold 1m", true,
        "2026-11-23T10:00:00Z", "2026-11-23T10:01:00Z", 1);
  }

  private static ResultRecord record(String stage, int iteration, double value) {
    return new ResultRecord("run", "s", "local", iteration, stage, "a", "rows_per_second", value, "rows/s", Map.of(),
        "2026-11-23T10:01:00Z");
  }

  @Test
  void aStepIsDoneOnlyOnceItsResultsAndMarkerAreWritten(@TempDir Path root) throws Exception {
    RunDirectory dir = new RunDirectory(root);
    assertFalse(dir.isDone("01-a"));
    dir.finish(step("01-a", "a", 1), List.of(record("a", 1, 10)));
    assertTrue(dir.isDone("01-a"));
    assertEquals(1, dir.finishedSteps().size());
    assertEquals(1, dir.readResults().size());
  }

  @Test
  void rerunningAStepReplacesWhatAKilledAttemptLeftOfIt(@TempDir Path root) throws Exception {
    RunDirectory dir = new RunDirectory(root);
    dir.finish(step("01-a", "a", 1), List.of(record("a", 1, 10)));
    // A kill after the results of stage b were written but before its marker: the rerun writes them again.
    Files.writeString(root.resolve("results.jsonl"),
        Files.readString(root.resolve("results.jsonl"))
            + dev.ingestbench.contracts.RunJson.toJsonLine(record("b", 1, 1)) + "\n");
    dir.finish(step("02-b", "b", 1), List.of(record("b", 1, 20)));
    List<ResultRecord> results = dir.readResults();
    assertEquals(2, results.size(), "no double counting of stage b: " + results);
    assertEquals(20, results.stream().filter(r -> r.stage().equals("b")).findFirst().orElseThrow().value());
    assertEquals(10, results.stream().filter(r -> r.stage().equals("a")).findFirst().orElseThrow().value());
  }

  @Test
  void segmentsAreNumberedInOrderOfStarts(@TempDir Path root) throws Exception {
    RunDirectory dir = new RunDirectory(root);
    assertEquals(1, dir.nextSegment());
    assertEquals(2, dir.nextSegment());
    assertTrue(Files.isDirectory(root.resolve("segment-2")));
    dir.clear();
    assertFalse(Files.exists(root));
  }
}
