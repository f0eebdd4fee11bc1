package dev.ingestbench.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.source.CpuSamplesCsv;
import dev.ingestbench.contracts.RunFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The share of a steady window [100, 110) spent checkpointing, from samples stamped at the end of
 * the second they cover: counted from the last sample at or before its start, over the seconds the
 * samples span.
 */
class CheckpointTimesTest {
  private static final Optional<Phase> WINDOW =
      Optional.of(
          new Phase("steady", 0, 10, Instant.ofEpochSecond(100), Instant.ofEpochSecond(110)));

  private static CpuSamplesCsv.Sample at(long second, long completed, long lastMs) {
    return new CpuSamplesCsv.Sample(
        Instant.ofEpochSecond(second), 1.0, 2, 1, 0, completed, lastMs, Double.NaN);
  }

  /** One checkpoint a second from second {@code first} to {@code last}, each taking {@code ms}. */
  private static List<CpuSamplesCsv.Sample> everySecond(long first, long last, long ms) {
    List<CpuSamplesCsv.Sample> samples = new ArrayList<>();
    for (long t = first; t <= last; t++) {
      samples.add(at(t, t - first + 1, ms));
    }
    return samples;
  }

  @Test
  void oneASecondCountsTheWindowsTenFromTheSampleAtItsStart() {
    CheckpointTimes c = CheckpointTimes.of(everySecond(95, 115, 400), WINDOW).orElseThrow();
    assertEquals(10, c.completed(), "the samples stamped 101..110 cover [100, 110)");
    assertEquals(10, c.seconds());
    assertEquals(0.4, c.busyShare(), 1e-9);
    assertFalse(c.bound());
  }

  @Test
  void aSkippedSecondCarriesTwoSecondsOfCheckpointsWithoutInflatingTheShare() {
    List<CpuSamplesCsv.Sample> samples = new ArrayList<>(everySecond(95, 115, 850));
    samples.removeIf(s -> s.second().getEpochSecond() == 105); // the sampler slept past it
    CheckpointTimes c = CheckpointTimes.of(samples, WINDOW).orElseThrow();
    assertEquals(10, c.completed());
    assertEquals(0.85, c.busyShare(), 1e-9, "per second of the span, not per sample");
    assertFalse(c.bound());
  }

  @Test
  void backToBackCheckpointsAreBoundAndTheShareStopsAtAll() {
    CheckpointTimes c = CheckpointTimes.of(everySecond(95, 115, 1_400), WINDOW).orElseThrow();
    assertEquals(1.0, c.busyShare(), 1e-9);
    assertTrue(c.bound());
    assertEquals(1_400, c.longestMs());
  }

  /**
   * A recorded round of two jobs, each job's samples given checkpoints (the round's summed samples
   * have none): the round's figures are the job that checkpointed most.
   */
  @Test
  void aRoundOfTwoJobsIsJudgedByTheJobThatCheckpointedMost(@TempDir Path dir) throws Exception {
    RecordedRounds.copy(Path.of("src/test/resources/recorded/round-kafka-two-jobs-fed"), dir);
    checkpointEverySecond(dir.resolve("job-1").resolve(RunFiles.CONSUMER_SAMPLES), 200);
    checkpointEverySecond(dir.resolve("job-2").resolve(RunFiles.CONSUMER_SAMPLES), 700);
    CheckpointTimes c = CheckpointTimes.of(RoundAnalysis.of(dir)).orElseThrow();
    assertEquals("job-2", c.job());
    assertTrue(c.busyShare() > 0.6 && c.busyShare() <= 0.7, c.describe());
    assertTrue(c.describe().startsWith("job-2, the job that checkpointed most: "), c.describe());
  }

  private static void checkpointEverySecond(Path file, long ms) throws IOException {
    List<String> lines = Files.readAllLines(file);
    List<String> out = new ArrayList<>();
    out.add(lines.get(0) + ",checkpoints_completed,checkpoint_last_ms");
    long completed = 0;
    for (String line : lines.subList(1, lines.size())) {
      out.add(line + "," + ++completed + "," + ms);
    }
    Files.write(file, out);
  }

  @Test
  void noGaugesOrNoCountAtTheWindowsStartIsNone() {
    List<CpuSamplesCsv.Sample> unrecorded = new ArrayList<>();
    for (long t = 95; t <= 115; t++) {
      unrecorded.add(at(t, -1, -1));
    }
    assertTrue(CheckpointTimes.of(unrecorded, WINDOW).isEmpty(), "another runner");
    assertTrue(
        CheckpointTimes.of(everySecond(103, 115, 400), WINDOW).isEmpty(),
        "the job's first checkpoint came inside the window: nothing to count from");
    assertTrue(CheckpointTimes.of(everySecond(95, 115, 400), Optional.empty()).isEmpty());
  }
}
