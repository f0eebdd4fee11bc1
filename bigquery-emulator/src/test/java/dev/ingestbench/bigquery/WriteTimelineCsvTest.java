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

  /**
   * 10,000 tables: the per-minute view keeps every table by name; the per-second one the first
   * hundred, the rest together, with every row counted in both.
   */
  @Test
  void manyTablesKeepEveryTablePerMinuteAndTheRowsPerSecond(@TempDir Path dir) throws Exception {
    WriteTimeline timeline = new WriteTimeline();
    long t0 = 1_800_000_000_000L;
    for (int second = 0; second < 3; second++) {
      for (int k = 0; k < 10_000; k++) {
        timeline.record("job-1", t0 + second * 1_000L, "p", "d", "t_" + k, "DEFAULT", "OK", 2, 100);
      }
      timeline.record("job-1", t0 + second * 1_000L, "p", "d", "t_dlq", "DEFAULT", "OK", 1, 50);
    }
    Path minute = dir.resolve("minute.csv");
    Path second = dir.resolve("second.csv");
    timeline.writeCsv(minute, 60, null);
    timeline.writeCsv(second, 1, null);
    List<String> perMinute = Files.readAllLines(minute);
    assertEquals(1 + 10_001, perMinute.size(), "a line per table, the dead letters' too");
    assertTrue(perMinute.stream().anyMatch(l -> l.contains(",t_9999,DEFAULT,OK,3,6,300")));
    List<String> perSecond = Files.readAllLines(second);
    assertEquals(1 + 3 * (100 + 1 + 1), perSecond.size(), "100 tables, the rest, the dead letters");
    assertTrue(
        perSecond.stream()
            .anyMatch(
                l -> l.contains("," + WriteTimeline.OTHER_TABLES + ",DEFAULT,OK,9900,19800,")));
    assertTrue(perSecond.stream().anyMatch(l -> l.contains(",t_dlq,DEFAULT,OK,1,1,50")));
  }
}
