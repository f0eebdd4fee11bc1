package dev.ingestbench.analysis.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.analysis.phases.Phase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartsTest {
  /** Round 3's shape: the exactly-once job runs in the exactly-once stage, and so on. */
  @Test
  void aStageNamedAsAJobIsShadedUnderItsOwnLabel(@TempDir Path dir) throws Exception {
    Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    List<Phase> stages =
        List.of(
            new Phase("exactly-once", 0, 1, t0, t0.plusSeconds(60)),
            new Phase("at-least-once", 1, 2, t0.plusSeconds(60), t0.plusSeconds(120)));
    Map<String, List<Date>> x = new LinkedHashMap<>();
    Map<String, List<Double>> y = new LinkedHashMap<>();
    x.put("exactly-once", List.of(Date.from(t0.plusSeconds(10)), Date.from(t0.plusSeconds(50))));
    y.put("exactly-once", List.of(100.0, 120.0));
    x.put("at-least-once", List.of(Date.from(t0.plusSeconds(70)), Date.from(t0.plusSeconds(110))));
    y.put("at-least-once", List.of(110.0, 115.0));
    Path file = dir.resolve("throughput.svg");
    // Two series of one name made the chart library throw, and the run ended without its report.
    Charts.lines("Rows appended per second", "rows/s", "HH:mm:ss", x, y, stages, file);
    assertTrue(Files.size(file) > 1_000, "the chart was written");
  }
}
