package dev.ingestbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ingestbench.contracts.ExitCodes;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** README command 1, small: a whole local round through the real command, its processes and its files. */
class RoundCommandTest {

  @Test
  void aSmallRoundPublishesConsumesAndReportsEveryMessage(@TempDir Path out) throws Exception {
    int exit = IngestbenchCommand.commandLine().execute(
        "round", "--out", out.toString(), "--messages", "20000", "--live-messages", "5000",
        "--live-rate", "5000", "--heap", "1g", "--timeout", "300");
    assertEquals(0, exit, "round exit code");
    JsonNode s = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    assertEquals(20_000, s.get("published").asLong());
    assertEquals(20_000, s.get("written").asLong());
    assertEquals(20_000, s.get("distinct_message_ids").asLong());
    assertEquals(0, s.get("duplicates").asLong());
    assertEquals(0, s.get("lost").asLong());
    assertEquals("exactly-once", s.get("write_method").asText());
    assertEquals("FlinkRunner", s.get("runner").asText());
    assertTrue(s.get("rows_per_second").asDouble() > 0);
    assertTrue(Files.readString(out.resolve("report.md")).contains("## Verification"));
    assertTrue(Files.readString(out.resolve("write_api_timeline.csv")).startsWith("start_timestamp,"));
    assertTrue(Files.exists(out.resolve("throughput.svg")));
  }

  @Test
  void inconsistentFlagsFailWithUsageExitCodeAndTheReason() {
    StringWriter err = new StringWriter();
    CommandLine cli = IngestbenchCommand.commandLine();
    cli.setErr(new PrintWriter(err));
    int exit = cli.execute("round", "--messages", "10", "--live-messages", "20");
    assertEquals(ExitCodes.USAGE, exit);
    assertTrue(err.toString().contains("--live-messages 20 must be between 0 and --messages (10)"), err.toString());
  }
}
