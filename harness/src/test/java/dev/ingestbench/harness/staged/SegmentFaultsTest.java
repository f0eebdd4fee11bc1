package dev.ingestbench.harness.staged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.harness.process.ChildJvm;
import dev.ingestbench.harness.process.ScriptedProcess;
import dev.ingestbench.scenario.PlannedStage;
import dev.ingestbench.scenario.ScenarioFile;
import dev.ingestbench.scenario.ScenarioPlan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stage's {@code savepoint_at} (a round's {@code --savepoint-at}): each running job is stopped
 * with a savepoint and started again once, not before its time, not before it has written, and a
 * stage that ends first says which jobs it did not reach.
 */
class SegmentFaultsTest {
  @TempDir Path dir;

  private final List<String> said = new ArrayList<>();
  private final List<String> saved = new ArrayList<>();
  private final Map<String, Long> accounted = new HashMap<>();
  private final Map<String, ChildJvm> running = new HashMap<>();

  @AfterEach
  void stopScriptedConsumers() {
    running.values().forEach(ChildJvm::close);
  }

  @Test
  void eachRunningJobIsSavedAndRestartedOnceWhenItsTimeHasComeAndItHasWritten() throws Exception {
    PlannedStage st = stage("savepoint_at: 1s");
    SegmentFaults faults = faults();
    accounted.put("a", 10L);
    faults.stageStarting(st);
    faults.tick();
    assertEquals(List.of(), saved, "not before its time");
    Thread.sleep(1_100);
    faults.tick();
    assertEquals(List.of("a"), saved, "a has written; b has not: its savepoint would hold nothing");
    assertTrue(
        said.get(0)
            .matches(
                "Stopped job a's consumer with a savepoint \\(savepoint_at, 10 accounted for\\) in"
                    + " \\d+\\.\\d s and started it again from it"),
        said.toString());
    accounted.put("b", 5L);
    faults.tick();
    faults.tick();
    assertEquals(List.of("a", "b"), saved, "each once");
    faults.stageEnded();
    assertEquals(2, said.size(), "nothing left to say: " + said);
  }

  @Test
  void aStageThatEndsFirstSaysWhichJobsItDidNotReach() throws Exception {
    PlannedStage st = stage("savepoint_at: 1s");
    SegmentFaults faults = faults();
    accounted.put("a", 10L);
    faults.stageStarting(st);
    faults.tick();
    Thread.sleep(1_100);
    faults.tick();
    faults.stageEnded();
    assertEquals(
        "Stage both ended before every job's savepoint_at came (its time, or a job's first row, had"
            + " not come): a only"
            + " were stopped with a savepoint and restored",
        said.get(said.size() - 1));
  }

  /**
   * A job that ended by itself before its savepoint came (it drained) is not started again: a fresh
   * consumer would read its source anew.
   */
  @Test
  void aJobThatEndedBeforeItsTimeIsNotStartedAgain() throws Exception {
    PlannedStage st = stage("savepoint_at: 1s");
    SegmentFaults faults = faults();
    accounted.put("a", 10L);
    accounted.put("b", 100L);
    faults.stageStarting(st);
    faults.tick();
    running.get("b").close(); // b drained and ended
    Thread.sleep(1_100);
    faults.tick();
    faults.stageEnded();
    assertEquals(List.of("a"), saved);
    assertEquals(1, said.size(), "a's stop only; b's end is no missed savepoint: " + said);
  }

  @Test
  void aStageWithoutSavepointAtSavesNothing() throws Exception {
    SegmentFaults faults = faults();
    accounted.put("a", 10L);
    accounted.put("b", 10L);
    faults.stageStarting(stage("hold: 5s"));
    Thread.sleep(1_100);
    faults.tick();
    faults.stageEnded();
    assertEquals(List.of(), saved);
    assertEquals(List.of(), said);
  }

  private PlannedStage stage(String keys) throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("s.yaml"),
            """
            name: s
            source: {kind: pubsub, topic: rides}
            publish: {messages: 100, backlog: 100}
            jobs: {a: {}, b: {}}
            stages:
              - {name: both, start: [a, b], hold: 1m, KEYS}
            """
                .replace(", KEYS", keys.startsWith("hold") ? "" : ", " + keys));
    return ScenarioPlan.of(ScenarioFile.load(file), 1, 0).stages().get(0);
  }

  private SegmentFaults faults() throws IOException {
    for (String job : List.of("a", "b")) {
      running.put(job, consumer(job));
    }
    return new SegmentFaults(
        new SegmentFaults.Jobs() {
          @Override
          public ChildJvm jvm(String job) {
            return running.get(job);
          }

          @Override
          public long accountedFor(String job) {
            return accounted.getOrDefault(job, 0L);
          }

          @Override
          public Path checkpoints(String job) {
            return dir.resolve(job);
          }

          @Override
          public ChildJvm restart(String job, Path checkpoint) {
            throw new AssertionError("no kill in these stages");
          }

          @Override
          public String killTaskManager() {
            throw new AssertionError("no TaskManager kill in these stages");
          }

          @Override
          public double saveAndRestart(String job) {
            saved.add(job);
            return 1.5;
          }

          @Override
          public String processName(String job) {
            return job;
          }
        },
        said::add,
        "run",
        name -> "job " + name + "'s consumer",
        true);
  }

  private ChildJvm consumer(String job) throws IOException {
    // Its standard input kept open: it runs until closed, as a stage's consumer does.
    return ChildJvm.startStoppable(
        command -> new ScriptedProcess(command, written -> ExitCodes.OK),
        job,
        "64m",
        "Consumer",
        List.of(),
        dir.resolve(job + ".log"),
        progress -> {});
  }
}
