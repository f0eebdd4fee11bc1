package dev.ingestbench.analysis.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ingestbench.contracts.RunFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's environment says how fast the machine was that day when round.json recorded it, and
 * nothing when an older round.json did not.
 */
class MachineSpeedRowTest {
  private static final Path RECORDED = Path.of("src/test/resources/recorded/round-fed-1m");

  @Test
  void theMachinesSpeedThatDayIsInTheEnvironment(@TempDir Path dir) throws Exception {
    copy(RECORDED, dir);
    ObjectMapper json = new ObjectMapper();
    ObjectNode round = (ObjectNode) json.readTree(dir.resolve(RunFiles.ROUND).toFile());
    ObjectNode speed = round.putObject("machine_calibration");
    speed.put(
        "workload", "generate 50,000 JSON taxi-ride messages of 500 B on one thread, best of 3");
    speed.put("operations", 50_000);
    speed.put("repetitions", 3);
    speed.put("best_seconds", 0.125);
    speed.put("operations_per_second", 400_000.0);
    json.writeValue(dir.resolve(RunFiles.ROUND).toFile(), round);
    String md = RoundMarkdown.render(RoundAnalysis.of(dir));
    assertTrue(
        md.contains("| Machine speed that day | 400,000 operations/s (generate 50,000 JSON"), md);
    assertFalse(
        RoundMarkdown.render(RoundAnalysis.of(RECORDED)).contains("Machine speed that day"),
        "a round.json from before the calibration has no row");
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Files.copy(f, to.resolve(f.getFileName()));
      }
    }
  }
}
