package dev.ingestbench.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.StopMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Stage sequencing, resume positions, scaling and the unordered order, on the shipped scenarios.
 */
class ScenarioPlanTest {
  private static final Path SHIPPED = Path.of("..", "scenarios");

  private static Scenario load(String name) throws Exception {
    return ScenarioFile.load(SHIPPED.resolve(name + ".yaml"));
  }

  @Test
  void eachStageRunsTheJobsStartedSoFarMinusThoseStopped() throws Exception {
    ScenarioPlan plan = ScenarioPlan.of(load("round-1-two-jobs-10kb"), 1, 1);
    assertEquals(List.of("a"), plan.stages().get(0).running());
    assertEquals(List.of("a", "b"), plan.stages().get(1).running());
    assertEquals(List.of("b"), plan.stages().get(2).running());
    assertEquals(
        List.of("01-a-alone", "02-a-and-b", "03-b-alone"),
        plan.stages().stream().map(PlannedStage::marker).toList());
  }

  @Test
  void aResumeRestartsTheJobsThatRanBeforeTheStage() throws Exception {
    ScenarioPlan plan = ScenarioPlan.of(load("round-1-two-jobs-10kb"), 1, 1);
    assertEquals(List.of(), plan.runningBefore(0));
    assertEquals(
        List.of("a"), plan.runningBefore(1), "stage 2 begins with a running, then starts b");
    assertEquals(
        List.of("a", "b"), plan.runningBefore(2), "stage 3 begins with both, then stops a");
  }

  @Test
  void aScenarioOfLiveMessagesOnlyHasNoBacklogAndKnowsWhichStopIsASavepoint() throws Exception {
    ScenarioPlan plan = ScenarioPlan.of(load("savepoint-restore"), 1, 1);
    assertEquals(0, plan.backlog(), "backlog: 0 is none, not one message");
    assertEquals(37_500, plan.liveMessages());
    assertEquals(
        Arrays.asList(null, StopMode.SAVEPOINT),
        plan.stages().stream().map(PlannedStage::stopWith).toList());
    assertTrue(plan.savepointed("a"));
    assertEquals(0, ScenarioPlan.of(load("savepoint-restore"), 0.1, 1).backlog());
  }

  @Test
  void scalingShrinksCountsAndDurationsAndSaysWhat() throws Exception {
    ScenarioPlan plan = ScenarioPlan.of(load("round-1-two-jobs-10kb"), 0.001, 1);
    assertEquals(36_000, plan.messages());
    assertEquals(36_000, plan.backlog());
    assertEquals(
        Duration.ofSeconds(90),
        plan.stages().get(0).hold(),
        "15m x 0.001 = 0.9 s, raised to the floor");
    assertEquals("36,000,000 -> 36,000", plan.scaled().get("publish.messages"));
    assertTrue(
        plan.scaled().get("stages.a-alone.hold").startsWith("15m -> 1m 30s"),
        plan.scaled().toString());
    ScenarioPlan fifth = ScenarioPlan.of(load("round-1-two-jobs-10kb"), 0.2, 1);
    assertEquals(Duration.ofSeconds(180), fifth.stages().get(0).hold(), "15m x 0.2");
    assertTrue(
        ScenarioPlan.of(load("round-1-two-jobs-10kb"), 1, 1).scaled().isEmpty(),
        "full size: nothing scaled");
    assertThrows(
        IllegalArgumentException.class, () -> ScenarioPlan.of(load("round-1-two-jobs-10kb"), 0, 1));
  }

  @Test
  void aScaledDownPubsubBacklogIsFedLocallyAndNothingElseIs() throws Exception {
    assertTrue(
        ScenarioPlan.of(load("round-1-two-jobs-10kb"), 0.001, 1).fedLocally(),
        "36,000 would last seconds");
    assertTrue(ScenarioPlan.of(load("round-4-java-two-jobs-pooled"), 0.01, 1).fedLocally());
    assertFalse(
        ScenarioPlan.of(load("round-1-two-jobs-10kb"), 1, 1).fedLocally(),
        "full size: the file's backlog");
    assertTrue(
        ScenarioPlan.of(load("round-6-kafka"), 0.001, 1).fedLocally(),
        "a Kafka backlog is read in seconds too");
    assertFalse(
        ScenarioPlan.of(load("write-method-ab"), 0.02, 1).fedLocally(),
        "unordered rounds publish their own");
  }

  @Test
  void unorderedConfigurationsRunKTimesEachInAnOrderTheSeedFixes() throws Exception {
    Scenario ab = load("write-method-ab");
    List<ScenarioPlan.PlannedIteration> order = ScenarioPlan.of(ab, 1, 42).iterations();
    assertEquals(10, order.size());
    Map<String, Long> perJob =
        order.stream()
            .collect(
                Collectors.groupingBy(ScenarioPlan.PlannedIteration::job, Collectors.counting()));
    assertEquals(Map.of("exactly-once", 5L, "at-least-once", 5L), perJob);
    for (int i = 0; i < 10; i += 2) {
      assertEquals(
          i / 2 + 1,
          order.get(i).iteration(),
          "each round of iterations runs every configuration once");
    }
    assertEquals(order, ScenarioPlan.of(ab, 1, 42).iterations(), "a resumed run keeps its order");
    for (long seed = 0; seed < 50; seed++) {
      List<ScenarioPlan.PlannedIteration> o = ScenarioPlan.of(ab, 1, seed).iterations();
      long eoFirst =
          IntStream.range(0, 5).filter(i -> o.get(2 * i).job().equals("exactly-once")).count();
      assertTrue(
          eoFirst == 2 || eoFirst == 3,
          "each configuration runs first in 2 or 3 of 5 rounds (seed " + seed + ")");
    }
    boolean anyDifferent = false;
    for (long seed = 0; seed < 20 && !anyDifferent; seed++) {
      anyDifferent = !ScenarioPlan.of(ab, 1, seed).iterations().equals(order);
    }
    assertTrue(anyDifferent, "the order is shuffled, not fixed");
    assertNotEquals("", order.get(0).marker());
  }
}
