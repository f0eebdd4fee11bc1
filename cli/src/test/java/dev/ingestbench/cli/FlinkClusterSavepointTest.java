package dev.ingestbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An exactly-once job on a real Flink session cluster (a JobManager, a TaskManager of two slots,
 * the job at parallelism 2), stopped with Flink's stop-with-savepoint while it writes and submitted
 * again from that savepoint: rows it had read and not yet written travel in the savepoint, and
 * nothing may be lost or written twice. One TaskManager, not two, as its CPU is most of the test's
 * (FlinkClusterRoundTest is the one of two TaskManagers).
 */
@Tag("e2e")
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class FlinkClusterSavepointTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long MESSAGES = 37_500;

  @Test
  void aJobStoppedWithASavepointIsRestoredFromItWithNothingLostOrDuplicated(
      @TempDir Path out, @TempDir Path logs) throws Exception {
    Path log = logs.resolve("run.log");
    Process run =
        IngestbenchProcess.start(
            log,
            "run",
            "../scenarios/savepoint-restore.yaml",
            "--out",
            out.toString(),
            "--target",
            "flink",
            "--workers",
            "1",
            "--slots",
            "2",
            "--heap",
            "512m");
    try {
      assertTrue(run.waitFor(560, TimeUnit.SECONDS), "the run ends: " + Files.readString(log));
    } finally {
      run.destroyForcibly();
    }
    String output = Files.readString(log);
    assertEquals(0, run.exitValue(), output);
    assertTrue(output.contains("Job a stopped with a savepoint: file:"), output);
    assertTrue(output.contains("Job a restores its savepoint file:"), output);

    List<JsonNode> results = results(out);
    long writtenBefore = value(results, "writing", "rows_written");
    assertTrue(
        writtenBefore > 0 && writtenBefore < MESSAGES,
        "the savepoint was taken while the job wrote, not after: " + writtenBefore);
    assertEquals(MESSAGES, value(results, "restored", "accounted_for"));
    assertEquals(0, value(results, "restored", "lost"));
    assertEquals(0, value(results, "restored", "duplicates"));

    assertTrue(
        Files.readString(out.resolve("segment-1/a.1.log")).contains("state saved"),
        "the first life's log is kept beside the restored job's a.log");

    String jobManager = clusterLogs(out);
    assertTrue(
        jobManager.toLowerCase(Locale.ROOT).contains("from savepoint"),
        "Flink itself restored the second submission from the savepoint");
  }

  private static List<JsonNode> results(Path out) throws IOException {
    try (Stream<String> lines = Files.lines(out.resolve("results.jsonl"))) {
      return lines
          .map(
              line -> {
                try {
                  return JSON.readTree(line);
                } catch (IOException e) {
                  throw new IllegalStateException(line, e);
                }
              })
          .toList();
    }
  }

  /** Job a's last value of {@code metric} in {@code stage}. */
  private static long value(List<JsonNode> results, String stage, String metric) {
    long value = -1;
    for (JsonNode r : results) {
      if (r.get("stage").asText().equals(stage)
          && r.get("job").asText().equals("a")
          && r.get("metric").asText().equals(metric)) {
        value = r.get("value").asLong();
      }
    }
    assertTrue(value >= 0, metric + " of a in " + stage + " is recorded");
    return value;
  }

  /** Every log of the cluster's processes, one after another. */
  private static String clusterLogs(Path out) throws IOException {
    StringBuilder all = new StringBuilder();
    try (Stream<Path> files = Files.walk(out)) {
      for (Path f :
          files
              .filter(p -> p.toString().contains("flink") && p.toString().endsWith(".log"))
              .toList()) {
        all.append(Files.readString(f));
      }
    }
    return all.toString();
  }
}
