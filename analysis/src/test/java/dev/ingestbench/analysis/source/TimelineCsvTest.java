package dev.ingestbench.analysis.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.analysis.model.TimelineRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimelineCsvTest {
  @Test
  void readsABqCsvExportWithColumnsInAnyOrder(@TempDir Path dir) throws IOException {
    Path csv = dir.resolve("t.csv");
    Files.writeString(
        csv,
        String.join(
            "\n",
            "table_id,start_timestamp,total_rows,total_input_bytes,stream_type,error_code,total_requests",
            "taxi,2026-02-12 10:54:00,1271339,713200000,DEFAULT,OK,1200",
            "taxi,2026-02-12T10:55:00Z,3093657,1735500000,DEFAULT,,3000",
            "taxi,2026-02-12 10:56:00 UTC,3357303,1883400000,DEFAULT,OK,3100"));
    List<TimelineRow> rows = TimelineCsv.read(csv);
    assertEquals(3, rows.size());
    assertEquals(Instant.parse("2026-02-12T10:54:00Z"), rows.get(0).start());
    assertEquals(Instant.parse("2026-02-12T10:55:00Z"), rows.get(1).start());
    assertEquals(Instant.parse("2026-02-12T10:56:00Z"), rows.get(2).start());
    assertEquals(1_735_500_000L, rows.get(1).totalInputBytes());
  }

  @Test
  void readsBqJsonArraysAndJsonLinesWithStringOrNumberValues(@TempDir Path dir) throws IOException {
    Path array = dir.resolve("t.json");
    Files.writeString(
        array,
        "[{\"start_timestamp\":\"2026-02-12 10:54:00\",\"table_id\":\"taxi\","
            + "\"total_rows\":\"1271339\",\"total_input_bytes\":\"713200000\"},"
            + "{\"start_timestamp\":\"1.77089376E9\",\"table_id\":\"taxi\",\"total_rows\":3093657,\"total_input_bytes\":1735500000}]");
    List<TimelineRow> rows = TimelineCsv.read(array);
    assertEquals(2, rows.size());
    assertEquals(Instant.parse("2026-02-12T10:54:00Z"), rows.get(0).start());
    assertEquals(Instant.parse("2026-02-12T10:56:00Z"), rows.get(1).start());
    assertEquals(3_093_657L, rows.get(1).totalRows());
    Path lines = dir.resolve("t.jsonl");
    Files.writeString(
        lines,
        "{\"start_timestamp\":\"2026-02-12T10:54:00Z\",\"table_id\":\"t\",\"total_rows\":1,\"total_input_bytes\":2}\n"
            + "{\"start_timestamp\":\"2026-02-12T10:55:00Z\",\"table_id\":\"t\",\"total_rows\":3,\"total_input_bytes\":4}\n");
    assertEquals(2, TimelineCsv.read(lines).size());
  }

  @Test
  void aMissingColumnIsNamedWithTheFix(@TempDir Path dir) throws IOException {
    Path csv = dir.resolve("t.csv");
    Files.writeString(csv, "start_timestamp,table_id,total_rows\n2026-02-12 10:54:00,t,1\n");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> TimelineCsv.read(csv));
    assertTrue(e.getMessage().contains("total_input_bytes"), e.getMessage());
  }

  @Test
  void aBadValueNamesTheLineAndColumn(@TempDir Path dir) throws IOException {
    Path csv = dir.resolve("t.csv");
    Files.writeString(
        csv,
        "start_timestamp,table_id,total_rows,total_input_bytes\n2026-02-12 10:54:00,t,many,1\n");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> TimelineCsv.read(csv));
    assertTrue(
        e.getMessage().contains("line 2") && e.getMessage().contains("total_rows"), e.getMessage());
  }
}
