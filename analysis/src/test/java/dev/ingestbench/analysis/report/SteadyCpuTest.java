package dev.ingestbench.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.RunFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A consumer started again (killed, stopped with a savepoint) writes its own CPU samples afresh:
 * the steady window's CPU then comes from the round's samples of every life, never from the last
 * life's alone.
 */
class SteadyCpuTest {
  private static final Path RECORDED = Path.of("src/test/resources/recorded");

  @Test
  void aRoundWhoseConsumerSamplesHoldOnlyItsLastLifeCountsEveryLife(@TempDir Path dir)
      throws Exception {
    RoundAnalysis whole = RoundAnalysis.of(RECORDED.resolve("round-default"));
    assertEquals(SteadyCpu.CONSUMER, whole.consumerCpuSource(), "its own samples, as always");

    RecordedRounds.copy(RECORDED.resolve("round-default"), dir);
    Path samples = dir.resolve(RunFiles.CONSUMER_SAMPLES);
    List<String> lines = Files.readAllLines(samples);
    List<String> lastLife = new ArrayList<>();
    lastLife.add(lines.get(0));
    lastLife.addAll(lines.subList(1 + (lines.size() - 1) * 2 / 3, lines.size()));
    RecordedRounds.rewrite(dir, RunFiles.CONSUMER_SAMPLES, lastLife);

    RoundAnalysis restarted = RoundAnalysis.of(dir);
    assertEquals(SteadyCpu.CONSUMER_PROCESSES, restarted.consumerCpuSource());
    double ratio = restarted.rowsPerCpuSecond() / whole.rowsPerCpuSecond();
    assertTrue(
        ratio > 0.85 && ratio < 1.15,
        "every life's CPU: "
            + restarted.rowsPerCpuSecond()
            + " rows per CPU-second against "
            + whole.rowsPerCpuSecond()
            + " from the whole samples");
  }
}
