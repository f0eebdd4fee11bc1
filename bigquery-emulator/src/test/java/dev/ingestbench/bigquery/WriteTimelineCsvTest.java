package dev.ingestbench.bigquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Table names come from the clients' write-stream paths: a comma or quote in one cannot shift a
 * column.
 */
class WriteTimelineCsvTest {
  @Test
  void aTableNameWithACommaAndAQuoteIsQuoted(@TempDir Path dir) throws Exception {
    WriteTimeline timeline = new WriteTimeline();
    timeline.record("job-1", 1_800_000_000_000L, "p", "d", "rides,\"x\"", "DEFAULT", "OK", 10, 500);
    Path csv = dir.resolve("t.csv");
    timeline.writeCsv(csv, 1, null);
    List<String> lines = Files.readAllLines(csv);
    assertEquals(2, lines.size(), lines.toString());
    assertTrue(lines.get(1).contains(",d,\"rides,\"\"x\"\"\",DEFAULT,OK,1,10,500"), lines.get(1));
  }
}
