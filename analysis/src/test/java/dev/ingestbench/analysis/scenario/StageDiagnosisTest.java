package dev.ingestbench.analysis.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.analysis.diagnosis.Verdict;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.contracts.StepStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The verdicts of a staged run, on per-second samples made to show each signal. */
class StageDiagnosisTest {
  private static final long T0 = 1_800_000_000L;

  /**
   * {@code seconds} seconds of {@code job} in {@code stage} from {@code from}: rows/s and
   * CPU-seconds/s.
   */
  private static void add(
      List<ScenarioSample> samples,
      String stage,
      String job,
      long from,
      int seconds,
      long rows,
      double cpu) {
    for (int i = 0; i < seconds; i++) {
      samples.add(new ScenarioSample(from + i, stage, job, rows, rows * 500, 1, cpu, 0));
    }
  }

  private static StepStatus step(String stage, List<String> jobs, long from, long to) {
    return new StepStatus(
        stage,
        stage,
        1,
        jobs,
        List.of(),
        List.of(),
        "hold",
        true,
        Instant.ofEpochSecond(from - 1).toString(),
        Instant.ofEpochSecond(to - 1).toString(),
        1);
  }

  private static List<Verdict> diagnose(
      List<StepStatus> steps,
      List<ScenarioSample> samples,
      Map<Long, Double> machine,
      Map<Long, Double> pubsub) {
    Map<String, Map<String, StageMeasures>> byStage = new LinkedHashMap<>();
    for (StepStatus s : steps) {
      long from = Instant.parse(s.startedAt()).getEpochSecond() + 1;
      long to = Instant.parse(s.endedAt()).getEpochSecond() + 1;
      Map<String, StageMeasures> m = new LinkedHashMap<>();
      s.jobs().forEach(j -> m.put(j, StageMeasures.of(samples, s.stage(), j, from, to)));
      m.put(ResultRecord.ALL_JOBS, StageMeasures.of(samples, s.stage(), null, from, to));
      byStage.put(s.stage(), m);
    }
    return StageDiagnosis.of(steps, byStage, samples, Map.of(), machine, pubsub, 4);
  }

  /** a alone for 60 s, then a and b for 60 s, at the given rows/s and CPU-seconds per second. */
  private static List<Verdict> aThenAAndB(
      long aAlone, double cpuAlone, long aWithB, long b, double cpuTogether) {
    return aThenAAndB(aAlone, cpuAlone, aWithB, b, cpuTogether, Map.of(), Map.of());
  }

  private static List<Verdict> aThenAAndB(
      long aAlone,
      double cpuAlone,
      long aWithB,
      long b,
      double cpuTogether,
      Map<Long, Double> machine,
      Map<Long, Double> pubsub) {
    List<ScenarioSample> samples = new ArrayList<>();
    add(samples, "a-alone", "a", T0, 60, aAlone, cpuAlone);
    add(samples, "a-and-b", "a", T0 + 60, 60, aWithB, cpuTogether);
    add(samples, "a-and-b", "b", T0 + 60, 60, b, cpuTogether);
    return diagnose(
        List.of(
            step("a-alone", List.of("a"), T0, T0 + 60),
            step("a-and-b", List.of("a", "b"), T0 + 60, T0 + 120)),
        samples,
        machine,
        pubsub);
  }

  @Test
  void twoJobsWritingLittleMoreThanOneWithCpuSpareIsContention() {
    List<Verdict> v = aThenAAndB(10_000, 1.0, 5_500, 5_500, 1.0);
    assertEquals(1, v.size(), v.toString());
    assertTrue(v.get(0).verdict().startsWith("Per-table contention"), v.toString());
    assertTrue(v.get(0).evidence().contains("1.10× for 2.00× the jobs"), v.get(0).evidence());
  }

  @Test
  void consumersUsingTheWholeMachineAreCpuBoundNotContended() {
    List<Verdict> v = aThenAAndB(10_000, 2.0, 5_500, 5_500, 1.9);
    assertEquals(List.of("CPU-bound in a-and-b"), v.stream().map(Verdict::verdict).toList());
  }

  @Test
  void aMachineBusyWithTheEmulatorsIsNotReadAsContention() {
    Map<Long, Double> machine = new HashMap<>();
    for (long t = T0; t < T0 + 120; t++) {
      machine.put(t, 3.8); // of 4 vCPUs: the consumers' 1.0 each plus the Pub/Sub emulator
    }
    List<Verdict> v = aThenAAndB(10_000, 1.0, 5_500, 5_500, 1.0, machine, Map.of());
    assertEquals(
        List.of("Machine CPU-bound in a-alone", "Machine CPU-bound in a-and-b"),
        v.stream().map(Verdict::verdict).toList());
  }

  @Test
  void jobsWaitingOnAPubsubEmulatorBusierThanThemAreNotReadAsContention() {
    Map<Long, Double> pubsub = new HashMap<>();
    for (long t = T0; t < T0 + 120; t++) {
      pubsub.put(t, 1.5);
    }
    List<Verdict> v = aThenAAndB(10_000, 1.0, 5_500, 5_500, 1.0, Map.of(), pubsub);
    assertEquals(
        List.of("Limited by the local Pub/Sub emulator in a-alone"),
        v.stream().map(Verdict::verdict).toList(),
        "a-alone: emulator 1.5 vCPUs > consumer 1.0; a-and-b: 1.5 < 2.0; no contention verdict: "
            + v);
  }

  @Test
  void aJobThatWroteNothingYetIsNotJudged() {
    List<Verdict> v = aThenAAndB(10_000, 1.0, 8_000, 0, 1.0);
    assertEquals(1, v.size(), v.toString());
    assertTrue(
        v.get(0).verdict().contains("not judged")
            && v.get(0).evidence().startsWith("b wrote no rows"),
        v.toString());
  }

  /**
   * A stage in which the only running job had nothing left to read is idle, not "limited by the
   * Pub/Sub emulator" because an emulator at 0.01 vCPUs out-used consumers at 0.00.
   */
  @Test
  void anIdleStageIsCalledIdleAndNoBottleneckIsReadFromIt() {
    List<ScenarioSample> samples = new ArrayList<>();
    add(samples, "a-alone", "a", T0, 60, 10_000, 1.0);
    add(samples, "a-drained", "a", T0 + 60, 60, 0, 0.0);
    Map<Long, Double> pubsub = new HashMap<>();
    for (long t = T0 + 60; t < T0 + 120; t++) {
      pubsub.put(t, 0.01);
    }
    List<Verdict> v =
        diagnose(
            List.of(
                step("a-alone", List.of("a"), T0, T0 + 60),
                step("a-drained", List.of("a"), T0 + 60, T0 + 120)),
            samples,
            Map.of(),
            pubsub);
    assertEquals(
        List.of("Idle in a-drained", "No bottleneck signal"),
        v.stream().map(Verdict::verdict).toList());
    assertTrue(v.get(0).evidence().startsWith("a wrote no row in a-drained"), v.get(0).evidence());
  }

  @Test
  void anIdleStageDoesNotHideContentionBetweenTheOthers() {
    List<ScenarioSample> samples = new ArrayList<>();
    add(samples, "a-alone", "a", T0, 60, 10_000, 1.0);
    add(samples, "a-and-b", "a", T0 + 60, 60, 5_500, 1.0);
    add(samples, "a-and-b", "b", T0 + 60, 60, 5_500, 1.0);
    add(samples, "nothing-left", "b", T0 + 120, 60, 0, 0.0);
    List<Verdict> v =
        diagnose(
            List.of(
                step("a-alone", List.of("a"), T0, T0 + 60),
                step("a-and-b", List.of("a", "b"), T0 + 60, T0 + 120),
                step("nothing-left", List.of("b"), T0 + 120, T0 + 180)),
            samples,
            Map.of(),
            Map.of());
    assertEquals(
        List.of(
            "Idle in nothing-left",
            "Per-table contention (sub-linear scaling) from a-alone to a-and-b"),
        v.stream().map(Verdict::verdict).toList());
  }
}
