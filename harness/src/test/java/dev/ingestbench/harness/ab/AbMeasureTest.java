package dev.ingestbench.harness.ab;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ingestbench.contracts.RunFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The figures a drain round gives ab, from its summary.json: each only where it was recorded. */
class AbMeasureTest {
  @Test
  void aRoundGivesEveryFigureItsSummaryRecorded(@TempDir Path out) throws Exception {
    Files.writeString(
        out.resolve(RunFiles.SUMMARY),
        "{\"rows_per_second\": 30192.8, \"rows_per_cpu_second\": 18036.3,"
            + " \"rows_per_cpu_second_without_jit\": 26766.7, \"harness_share\": 0.123}");
    Map<String, Double> f = AbMeasure.ROUND.figures(out);
    assertEquals(
        List.of(
            AbMeasure.ROWS_PER_CPU_SECOND,
            AbMeasure.ROWS_PER_CPU_SECOND_WITHOUT_JIT,
            AbMeasure.ROWS_PER_SECOND,
            AbMeasure.HARNESS_SHARE),
        List.copyOf(f.keySet()));
    assertEquals(0.123, f.get(AbMeasure.HARNESS_SHARE));
    assertEquals(26766.7, f.get(AbMeasure.ROWS_PER_CPU_SECOND_WITHOUT_JIT));
  }

  /** A baseline from before the JIT's seconds and the harness's share were recorded. */
  @Test
  void aFigureTheRoundDidNotRecordIsLeftOutNotZero(@TempDir Path out) throws Exception {
    Files.writeString(
        out.resolve(RunFiles.SUMMARY),
        "{\"rows_per_second\": 30192.8, \"rows_per_cpu_second\": 18036.3}");
    assertEquals(
        List.of(AbMeasure.ROWS_PER_CPU_SECOND, AbMeasure.ROWS_PER_SECOND),
        List.copyOf(AbMeasure.ROUND.figures(out).keySet()));
  }
}
