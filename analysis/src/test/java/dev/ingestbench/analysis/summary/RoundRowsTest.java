package dev.ingestbench.analysis.summary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.ingestbench.analysis.report.RoundAnalysis;
import dev.ingestbench.analysis.report.RoundSummaryJson;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A round's row of the summary table: every round's summary.json names what limited it, and only a
 * max-rate search's limit belongs in the row's "max sustained" column.
 */
class RoundRowsTest {
  private static final Path RECORDED = Path.of("src/test/resources/recorded/round-backlog-1m");

  @Test
  void aDrainsLimitIsNotTakenForASearchs(@TempDir Path dir) throws Exception {
    Files.copy(RECORDED.resolve(RunFiles.ROUND), dir.resolve(RunFiles.ROUND));
    RunJson.write(dir.resolve(RunFiles.SUMMARY), RoundSummaryJson.of(RoundAnalysis.of(RECORDED)));
    assertEquals(
        "source-emulator",
        RunJson.read(dir.resolve(RunFiles.SUMMARY), dev.ingestbench.contracts.RoundSummary.class)
            .limitedBy());
    RunRow row = RoundRows.of("backlog", dir);
    assertNull(row.limitedBy(), "no search ran: the row's input is the backlog, not probed");
    assertNull(row.maxSustainableRowsPerSecond());
  }
}
