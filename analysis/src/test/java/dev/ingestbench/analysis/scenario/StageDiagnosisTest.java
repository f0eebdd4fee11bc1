package dev.ingestbench.analysis.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.analysis.diagnosis.Verdict;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.contracts.StepStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The verdicts of a staged run, on per-second samples made to show each signal. */
class StageDiagnosisTest {
  private static final long T0 = 1_800_000_000L;

  /** {@code seconds} seconds of {@code job} in {@code stage} from {@code from}: rows/s and CPU-seconds/s. */
  private static void add(List<ScenarioSample> samples, String stage, String job, long from, int seconds, long rows,
      double cpu) {
    for (int i = 0; i < seconds; i++) {
      samples.add(new ScenarioSample(from + i, stage, job, rows, rows * 500, 1, cpu, 0));
    }
  }

  private static StepStatus step(String stage, List<String> jobs, long from, long to) {
    return new StepStatus(stage, stage, 1, jobs, List.of(), List.of(), "hold", true,
        Instant.ofEpochSecond(from - 1).toString(), Instant.ofEpochSecond(to - 1).toString(), 1);
  }

  private static List<Verdict> diagnose(List<StepStatus> steps, List<ScenarioSample> samples) {
    Map<String, Map<String, StageMeasures>> byStage = new LinkedHashMap<>();
    for (StepStatus s : steps) {
      long from = Instant.parse(s.startedAt()).getEpochSecond() + 1;
      long to = Instant.parse(s.endedAt()).getEpochSecond() + 1;
      Map<String, StageMeasures> m = new LinkedHashMap<>();
      s.jobs().forEach(j -> m.put(j, StageMeasures.of(samples, s.stage(), j, from, to)));
      m.put(ResultRecord.ALL_JOBS, StageMeasures.of(samples, s.stage(), null, from, to));
      byStage.put(s.stage(), m);
    }
    return StageDiagnosis.of(steps, byStage, samples, Map.of(), 4);
  }

  @Test
  void twoJobsWritingLittleMoreThanOneWithCpuSpareIsContention() {
    List<ScenarioSample> samples = new ArrayList<>();
    add(samples, "a-alone", "a", T0, 60, 10_000, 1.0);
    add(samples, "a-and-b", "a", T0 + 60, 60, 5_500, 1.0);
    add(samples, "a-and-b", "b", T0 + 60, 60, 5_500, 1.0);
    List<Verdict> v = diagnose(List.of(step("a-alone", List.of("a"), T0, T0 + 60),
        step("a-and-b", List.of("a", "b"), T0 + 60, T0 + 120)), samples);
    assertEquals(1, v.size(), v.toString());
    assertTrue(v.get(0).verdict().startsWith("Per-table contention"), v.toString());
    assertTrue(v.get(0).evidence().contains("1.10× for 2.00× the jobs"), v.get(0).evidence());
  }

  @Test
  void consumersUsingTheWholeMachineAreCpuBoundNotContended() {
    List<ScenarioSample> samples = new ArrayList<>();
    add(samples, "a-alone", "a", T0, 60, 10_000, 2.0);
    add(samples, "a-and-b", "a", T0 + 60, 60, 5_500, 1.9);
    add(samples, "a-and-b", "b", T0 + 60, 60, 5_500, 1.9);
    List<Verdict> v = diagnose(List.of(step("a-alone", List.of("a"), T0, T0 + 60),
        step("a-and-b", List.of("a", "b"), T0 + 60, T0 + 120)), samples);
    assertEquals(List.of("CPU-bound in a-and-b"), v.stream().map(Verdict::verdict).toList());
  }

  @Test
  void aJobThatWroteNothingYetIsNotJudged() {
    List<ScenarioSample> samples = new ArrayList<>();
    add(samples, "a-alone", "a", T0, 60, 10_000, 1.0);
    add(samples, "a-and-b", "a", T0 + 60, 60, 8_000, 1.0);
    add(samples, "a-and-b", "b", T0 + 60, 60, 0, 1.0);
    List<Verdict> v = diagnose(List.of(step("a-alone", List.of("a"), T0, T0 + 60),
        step("a-and-b", List.of("a", "b"), T0 + 60, T0 + 120)), samples);
    assertEquals(1, v.size(), v.toString());
    assertTrue(v.get(0).verdict().contains("not judged") && v.get(0).evidence().startsWith("b wrote no rows"), v.toString());
  }
}
