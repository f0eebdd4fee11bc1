package dev.ingestbench.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.RunFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A round of two jobs: their per-second samples summed into the round's, except the checkpoints,
 * which are each job's own (one job's recorded, the other's empty, as on a runner without them).
 */
class MultiJobResultsTest {
  private static final Path RECORDED =
      Path.of("src/test/resources/recorded/round-kafka-two-jobs-fed");

  @Test
  void samplesAreSummedAndCheckpointsLeftToEachJob(@TempDir Path dir) throws Exception {
    List<Path> jobs = jobs(dir);
    List<String> combined = combined(dir, jobs, new String[] {"7", "250", "0.25"}, "0.5");
    assertEquals(
        "epoch_second,cpu_seconds,vcpus,rows_visible,accounted_for,open_append_clients,"
            + "heap_used_bytes,checkpoints_completed,checkpoint_last_ms,jit_cpu_seconds",
        combined.get(0));
    double jobsCpu = 0;
    for (Path job : jobs) {
      List<String> lines = Files.readAllLines(job.resolve(RunFiles.CONSUMER_SAMPLES));
      for (String line : lines.subList(1, lines.size())) {
        jobsCpu += Double.parseDouble(line.split(",", -1)[1]);
      }
    }
    double jobsJit =
        0.25 * (Files.readAllLines(jobs.get(0).resolve(RunFiles.CONSUMER_SAMPLES)).size() - 1)
            + 0.5 * (Files.readAllLines(jobs.get(1).resolve(RunFiles.CONSUMER_SAMPLES)).size() - 1);
    double roundCpu = 0;
    double roundJit = 0;
    for (String line : combined.subList(1, combined.size())) {
      String[] f = line.split(",", -1);
      assertEquals(10, f.length, line);
      assertEquals("", f[7], "no sum of two jobs' checkpoint counts: " + line);
      assertEquals("", f[8], line);
      // Seconds both jobs sampled add up; one job alone gives its own.
      assertTrue(f[9].equals("0.7500") || f[9].equals("0.2500") || f[9].equals("0.5000"), line);
      roundCpu += Double.parseDouble(f[1]);
      roundJit += Double.parseDouble(f[9]);
    }
    assertEquals(jobsCpu, roundCpu, 0.01, "the jobs' CPU adds up");
    assertEquals(jobsJit, roundJit, 0.01, "the jobs' JIT seconds add up, as their CPU does");
  }

  /** A second where one job has no JIT figure has none for the round: a sum of part is no sum. */
  @Test
  void aSecondWithoutOneJobsJitSecondsHasNoneSummed(@TempDir Path dir) throws Exception {
    List<Path> jobs = jobs(dir);
    List<String> combined = combined(dir, jobs, new String[] {"", "", "0.25"}, "");
    List<String> job2 = Files.readAllLines(jobs.get(1).resolve(RunFiles.CONSUMER_SAMPLES));
    java.util.Set<String> job2Seconds = new java.util.HashSet<>();
    job2.subList(1, job2.size()).forEach(l -> job2Seconds.add(l.split(",", -1)[0]));
    int both = 0;
    for (String line : combined.subList(1, combined.size())) {
      String[] f = line.split(",", -1);
      if (job2Seconds.contains(f[0])) {
        both++;
        assertEquals("", f[9], "job-2 has no JIT figure in this second: " + line);
      } else {
        assertEquals("0.2500", f[9], "job-1 alone: its own figure: " + line);
      }
    }
    assertTrue(both > 0, "the recorded jobs share seconds");
  }

  /** The recorded round's two jobs, copied into {@code dir}. */
  private static List<Path> jobs(Path dir) throws IOException {
    RecordedRounds.copy(RECORDED, dir);
    return List.of(dir.resolve("job-1"), dir.resolve("job-2"));
  }

  /**
   * The round's samples combined from its jobs': job-1's checkpoint columns and JIT seconds {@code
   * first} (completed, last ms, JIT) on every row, job-2's JIT seconds {@code secondJit}, no
   * checkpoints.
   */
  private static List<String> combined(Path dir, List<Path> jobs, String[] first, String secondJit)
      throws IOException {
    withCheckpoints(jobs.get(0).resolve(RunFiles.CONSUMER_SAMPLES), first[0], first[1], first[2]);
    withCheckpoints(jobs.get(1).resolve(RunFiles.CONSUMER_SAMPLES), "", "", secondJit);
    MultiJobResults.combine(dir, jobs);
    return Files.readAllLines(dir.resolve(RunFiles.CONSUMER_SAMPLES));
  }

  /** Appends the checkpoint columns, with these values on every row, to a recorded samples file. */
  private static void withCheckpoints(Path file, String completed, String lastMs, String jit)
      throws IOException {
    List<String> lines = Files.readAllLines(file);
    List<String> out = new ArrayList<>();
    out.add(lines.get(0) + ",checkpoints_completed,checkpoint_last_ms,jit_cpu_seconds");
    for (String line : lines.subList(1, lines.size())) {
      out.add(line + "," + completed + "," + lastMs + "," + jit);
    }
    Files.write(file, out);
  }
}
