package dev.ingestbench.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.RunFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JIT compiler's share of the consumer's steady CPU, from the samples' jit_cpu_seconds. */
class JitShareTest {
  private static final Path RECORDED = Path.of("src/test/resources/recorded/round-default");

  @Test
  void aShareOfEverySecondIsTheWindowsShareAndComesOffTheRowsPerCpuSecond(@TempDir Path dir)
      throws Exception {
    RecordedRounds.copy(RECORDED, dir);
    RoundAnalysis before = RoundAnalysis.of(dir);
    withJit(dir, 0.4, -1);

    RoundAnalysis a = RoundAnalysis.of(dir);

    assertEquals(0.4, a.steadyJitShare(), 0.001);
    assertEquals(before.rowsPerCpuSecond(), a.rowsPerCpuSecond(), 1e-6, "the CPU is unchanged");
    assertEquals(a.rowsPerCpuSecond() / 0.6, a.rowsPerCpuSecondWithoutJit(), 1e-6);
    RoundSummary s = RoundReport.write(dir);
    assertEquals(0.4, s.consumerJitShare(), 0.001);
    // The CPU limit says how much of the consumers' CPU was the warm-up.
    assertEquals("machine-cpu", s.limitedBy());
    assertTrue(
        s.limitedByEvidence()
            .endsWith(
                "of the consumers' CPU, 40% was their JIT compiler's (the"
                    + " JVM compiling the pipeline's code: a short run's warm-up)"),
        s.limitedByEvidence());
    assertTrue(
        Files.readString(dir.resolve(RunFiles.REPORT))
            .contains("Rows per CPU-second (consumer, without the JIT)"));
  }

  @Test
  void unknownWhereTheSamplesDoNotHaveIt(@TempDir Path dir) throws Exception {
    RecordedRounds.copy(RECORDED, dir);
    RoundSummary without = RoundReport.write(dir);
    assertNull(without.consumerJitShare(), "a recorded round from before the column");
    assertNull(without.rowsPerCpuSecondWithoutJit());
    assertTrue(!without.limitedByEvidence().contains("JIT"), without.limitedByEvidence());
    assertTrue(
        !Files.readString(dir.resolve(RunFiles.REPORT)).contains("without the JIT"),
        "no row for a figure not recorded");

    RoundAnalysis a = RoundAnalysis.of(dir);
    int middle = a.steady().orElseThrow().toIndex() - 1;
    withJit(dir, 0.4, middle);
    assertTrue(
        Double.isNaN(RoundAnalysis.of(dir).steadyJitShare()),
        "a second of the window without the figure leaves the window's share unknown");
  }

  /** JIT seconds of all the CPU or more (the two read a moment apart) are not a share. */
  @Test
  void aShareOfAllTheCpuOrMoreIsUnknown(@TempDir Path dir) throws Exception {
    RecordedRounds.copy(RECORDED, dir);
    withJit(dir, 1.0, -1);
    assertTrue(Double.isNaN(RoundAnalysis.of(dir).steadyJitShare()), "a share of 1 is no share");
    RoundSummary s = RoundReport.write(dir);
    assertNull(s.consumerJitShare());
    assertNull(s.rowsPerCpuSecondWithoutJit(), "no figure divided by nothing");
  }

  /**
   * Adds jit_cpu_seconds to the consumer's samples: {@code share} of each second's CPU, empty in
   * the sample whose covered second is bucket {@code emptyBucket} of the timeline (-1: none).
   */
  private static void withJit(Path dir, double share, int emptyBucket) throws IOException {
    Path file = dir.resolve(RunFiles.CONSUMER_SAMPLES);
    List<String> lines = Files.readAllLines(file);
    RoundAnalysis a = RoundAnalysis.of(dir);
    long emptySecond =
        emptyBucket < 0
            ? -1
            : a.perSecond().buckets().get(emptyBucket).start().getEpochSecond() + 1;
    List<String> out = new ArrayList<>();
    out.add(lines.get(0) + ",jit_cpu_seconds");
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",", -1);
      double cpu = Double.parseDouble(f[1]);
      out.add(
          line
              + ","
              + (Long.parseLong(f[0]) == emptySecond
                  ? ""
                  : String.format(Locale.ROOT, "%.4f", share * cpu)));
    }
    RecordedRounds.rewrite(dir, RunFiles.CONSUMER_SAMPLES, out);
  }
}
