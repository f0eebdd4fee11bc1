package dev.ingestbench.harness.staged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.contracts.StepStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Markers and results stay consistent whatever point a run was killed at. */
class RunDirectoryTest {

  private static StepStatus step(String marker, String stage, int iteration) {
    return new StepStatus(
        marker,
        stage,
        iteration,
        List.of("a"),
        List.of("a"),
        List.of(),
        "hold 1m",
        true,
        "2026-11-23T10:00:00Z",
        "2026-11-23T10:01:00Z",
        1);
  }

  private static ResultRecord record(String stage, int iteration, double value) {
    return new ResultRecord(
        "run",
        "s",
        "local",
        iteration,
        stage,
        "a",
        "rows_per_second",
        value,
        "rows/s",
        Map.of(),
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
    // A kill after the results of stage b were written but before its marker: the rerun writes them
    // again.
    Files.writeString(
        root.resolve("results.jsonl"),
        Files.readString(root.resolve("results.jsonl"))
            + RunJson.toJsonLine(record("b", 1, 1))
            + "\n");
    dir.finish(step("02-b", "b", 1), List.of(record("b", 1, 20)));
    List<ResultRecord> results = dir.readResults();
    assertEquals(2, results.size(), "no double counting of stage b: " + results);
    assertEquals(
        20, results.stream().filter(r -> r.stage().equals("b")).findFirst().orElseThrow().value());
    assertEquals(
        10, results.stream().filter(r -> r.stage().equals("a")).findFirst().orElseThrow().value());
  }

  @Test
  void segmentsAreNumberedInOrderOfStarts(@TempDir Path root) throws Exception {
    RunDirectory dir = new RunDirectory(root);
    assertEquals(1, dir.nextSegment());
    assertEquals(2, dir.nextSegment());
    assertTrue(Files.isDirectory(root.resolve("segment-2")));
  }

  /** A directory with a run's files, as a finished run leaves it. */
  private static RunDirectory aFinishedRun(Path root) throws Exception {
    RunDirectory dir = new RunDirectory(root);
    Path scenario =
        Files.writeString(root.resolveSibling(root.getFileName() + ".yaml"), "name: s\n");
    dir.start(
        new ScenarioRun("run", "s", "local", 1, "sha", "2026-11-23T10:00:00Z", "m", 2, null),
        scenario);
    dir.finish(step("01-a", "a", 1), List.of(record("a", 1, 10)));
    Files.writeString(dir.segment(dir.nextSegment()).resolve("a.log"), "log");
    Files.writeString(root.resolve("report.md"), "# report");
    Files.createDirectories(root.resolve("iterations").resolve("a-i1"));
    return dir;
  }

  @Test
  void restartRemovesWhatARunWroteAndNothingElse(@TempDir Path parent) throws Exception {
    Path root = parent.resolve("run");
    RunDirectory dir = aFinishedRun(root);
    dir.clear();
    try (var left = Files.list(root)) {
      assertEquals(List.of(), left.toList(), "every file of the run is gone");
    }
    assertTrue(Files.isDirectory(root), "the directory itself is the user's");
  }

  @Test
  void restartRefusesADirectoryHoldingAFileARunDoesNotWriteAndDeletesNothing(@TempDir Path parent)
      throws Exception {
    Path root = parent.resolve("run");
    RunDirectory dir = aFinishedRun(root);
    Files.writeString(root.resolve("my-notes.txt"), "mine");
    IllegalArgumentException e =
        Assertions.assertThrows(IllegalArgumentException.class, dir::clear);
    assertTrue(
        e.getMessage().contains("my-notes.txt") && e.getMessage().contains("nothing was deleted"),
        e.getMessage());
    assertTrue(Files.exists(root.resolve("my-notes.txt")));
    assertTrue(
        Files.exists(root.resolve("run.json")) && Files.exists(root.resolve("report.md")),
        "the run's own files are kept too: nothing is deleted");
  }

  @Test
  void restartRefusesADirectoryThatIsNoRunsDirectory(@TempDir Path home) throws Exception {
    Files.writeString(home.resolve("report.md"), "someone's report");
    Files.createDirectories(home.resolve("status"));
    RunDirectory dir = new RunDirectory(home);
    IllegalArgumentException e =
        Assertions.assertThrows(IllegalArgumentException.class, dir::clear);
    assertTrue(e.getMessage().contains("holds no run.json"), e.getMessage());
    assertTrue(Files.exists(home.resolve("report.md")));
  }
}
