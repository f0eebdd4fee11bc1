package dev.ingestbench.analysis.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The analyze command's contract: files, report.json keys, and clear errors. */
class AnalyzeCommandTest {
  private static final Path REF = Path.of("src", "test", "resources", "reference");

  @Test
  void writesTheReportFilesWithTheContractKeys(@TempDir Path out) throws Exception {
    int exit =
        AnalyzeCommand.commandLine()
            .execute(
                "--timeline",
                REF.resolve("round3_write_api_timeline.csv").toString(),
                "--cpu",
                REF.resolve("round3_vcpu_seconds.csv").toString(),
                "--vcpus",
                "12",
                "--phase",
                "A1=10:56..11:01",
                "--phase",
                "A2=11:13..11:22",
                "--out",
                out.toString());
    assertEquals(0, exit);
    JsonNode r = new ObjectMapper().readTree(out.resolve("report.json").toFile());
    JsonNode a1 = r.get("phases").get(0);
    for (String key :
        new String[] {
          "name",
          "start",
          "end",
          "minutes",
          "rows_per_second",
          "mb_per_second",
          "cpu_utilisation",
          "rows_per_second_per_vcpu"
        }) {
      assertTrue(a1.has(key), key);
    }
    for (String key : new String[] {"mean", "stddev", "ci95_low", "ci95_high"}) {
      assertTrue(a1.get("rows_per_second").has(key), key);
    }
    assertEquals("2026-02-12T10:56:00Z", a1.get("start").asText());
    JsonNode c = r.get("comparisons").get(0);
    for (String key :
        new String[] {
          "a", "b", "difference_pct", "ci95_low", "ci95_high", "p_value", "significant"
        }) {
      assertTrue(c.has(key), key);
    }
    assertTrue(
        r.get("diagnosis").get(0).has("verdict") && r.get("diagnosis").get(0).has("evidence"));
    assertTrue(
        Files.readString(out.resolve("report.md")).contains("## Comparison (Welch's t-test"));
    assertTrue(Files.readString(out.resolve("timeline.svg")).contains("<svg"));
  }

  @Test
  void tableRowsAreComparedWithTheAppendedRows(@TempDir Path out) throws Exception {
    // round 3's timeline counts 60,639,493 appended rows; a table of 55,126,812 is 10% fewer
    assertEquals(
        0,
        AnalyzeCommand.commandLine()
            .execute(
                "--timeline",
                REF.resolve("round3_write_api_timeline.csv").toString(),
                "--table-rows",
                "55126812",
                "--out",
                out.toString()));
    JsonNode r = new ObjectMapper().readTree(out.resolve("report.json").toFile());
    assertEquals(60_639_493L, r.get("appended_rows").asLong());
    assertEquals(55_126_812L, r.get("table_rows").asLong());
    assertEquals(10.0, r.get("appended_over_table_pct").asDouble(), 0.01);
    assertTrue(
        Files.readString(out.resolve("report.md"))
            .contains(
                "The table holds 55,126,812 rows (--table-rows): appended is +10.00% of that."));
  }

  @Test
  void badInputEndsWithOneLineAndExitCodeTwo(@TempDir Path out) {
    StringWriter err = new StringWriter();
    CommandLine cli = AnalyzeCommand.commandLine();
    cli.setErr(new PrintWriter(err));
    int exit =
        cli.execute(
            "--timeline",
            REF.resolve("round3_write_api_timeline.csv").toString(),
            "--phase",
            "A1=10:56-11:01",
            "--out",
            out.toString());
    assertEquals(2, exit);
    assertTrue(
        err.toString().startsWith("analyze: --phase A1=10:56-11:01 is not NAME=HH:MM..HH:MM"),
        err.toString());
  }
}
