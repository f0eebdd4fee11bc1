package dev.ingestbench.consumer.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class WrittenRowsTest {
  @Test
  void countsDistinctDuplicatesAndDeadLettersOncePerMessage() {
    WrittenRows written = new WrittenRows();
    long now = 10_000;
    written.recordWritten(new long[] {0, 1, 2, 1}, new long[] {9_000_000, 9_000_000, 9_500_000, 9_000_000}, 4, now);
    written.recordWritten(new long[] {RowKeyScanner.ABSENT}, new long[] {RowKeyScanner.ABSENT}, 1, now);
    written.recordDeadLetter(3, "bad json");
    written.recordDeadLetter(RowKeyScanner.ABSENT, "no index");
    WrittenRows.Snapshot s = written.snapshot();
    assertEquals(5, s.rowsWritten());
    assertEquals(3, s.distinctEventIndexes());
    assertEquals(1, s.duplicates());
    assertEquals(1, s.unindexedRows());
    assertEquals(2, s.deadLetterRows());
    assertEquals(5, s.accountedFor()); // 0,1,2 written + 3 dead-lettered + one unindexed dead letter
    assertEquals(1_000, s.p99LatencyMs(), 1);
    assertEquals(List.of("bad json", "no index"), s.deadLetterErrors());
  }

  @Test
  void liveLatencyCountsOnlyMessagesPublishedAfterTheMark() {
    WrittenRows written = new WrittenRows();
    written.markLiveFrom(9_500);
    written.recordWritten(new long[] {0, 1}, new long[] {1_000_000, 9_800_000}, 2, 10_000);
    WrittenRows.Snapshot s = written.snapshot();
    assertEquals(2, s.latencySamples());
    assertEquals(1, s.liveLatencySamples());
    assertEquals(200, s.liveP50LatencyMs(), 1);
  }
}
