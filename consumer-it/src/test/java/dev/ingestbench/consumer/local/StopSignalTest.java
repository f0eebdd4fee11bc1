package dev.ingestbench.consumer.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ingestbench.consumer.it.ConsumerJvm;
import dev.ingestbench.contracts.ConsumerProgress;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The consumer in a JVM of its own, stopped with SIGTERM (what Ctrl-C, a round's own exit or a CI
 * timeout sends) while it writes: it must leave its partial results, saying they are partial, and
 * no checkpoint directory.
 */
@Tag("e2e")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class StopSignalTest {
  @Test
  void sigtermWritesPartialResultsAndRemovesTheCheckpoints(@TempDir Path out) throws Exception {
    Process consumer =
        new ProcessBuilder(
                ConsumerJvm.command(
                    "768m",
                    "--source=synthetic",
                    "--syntheticMessages=100000000",
                    "--outputTable=bench.rides",
                    "--project=ingestbench-local",
                    "--localOutputDir=" + out,
                    "--timeoutSeconds=300",
                    // a progress line a second, not the log's every 5 s: stopped once it writes
                    "--progressLines=true"))
            .redirectErrorStream(true)
            .start();
    long pid = consumer.pid();
    try (BufferedReader lines =
        new BufferedReader(
            new InputStreamReader(consumer.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null
          && !ConsumerProgress.parse(line).filter(p -> p.rowsWritten() > 0).isPresent()) {
        // wait until rows are being written
      }
      assertTrue(line != null, "the consumer wrote rows before it was stopped");
      consumer
          .toHandle()
          .destroy(); // SIGTERM (Process.destroy would also close our end of its output)
      while (lines.readLine() != null) {
        // drain, so the child never blocks on a full pipe
      }
    }
    assertTrue(consumer.waitFor(30, TimeUnit.SECONDS), "the consumer exited");
    JsonNode result = new ObjectMapper().readTree(out.resolve("consumer_result.json").toFile());
    assertEquals(LocalRun.SIGNALLED, result.get("stop_reason").asText());
    assertTrue(result.get("rows_written").asLong() > 0, result.toString());
    assertTrue(
        Files.exists(out.resolve("write_api_timeline.csv")),
        "the timeline of what was written so far");
    try (Stream<Path> tmp = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      assertFalse(
          tmp.anyMatch(
              p ->
                  p.getFileName()
                      .toString()
                      .startsWith("ingestbench-flink-checkpoints-" + pid + "-")),
          "its checkpoint directory is removed");
    }
  }
}
