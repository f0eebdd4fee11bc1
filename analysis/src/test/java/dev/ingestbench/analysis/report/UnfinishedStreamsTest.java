package dev.ingestbench.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.EmulatorStatus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where rows that were appended and never made visible stopped, as the report lists it. */
class UnfinishedStreamsTest {
  private static EmulatorStatus status(List<EmulatorStatus.Stream> streams) {
    long invisible = streams.stream().mapToLong(s -> s.appendedRows() - s.visibleRows()).sum();
    return new EmulatorStatus(
        "g", "r", "t", 0, 0, 0, 0, 0, 0, 0, List.of(), 0, 0, 0, 0, "run", invisible, streams, 0, 0,
        0, 0, null, List.of(), List.of(), null, List.of());
  }

  private static EmulatorStatus.Stream stream(int n, long appended, long visible) {
    return new EmulatorStatus.Stream(
        "s" + n,
        "ingestbench.taxi_rides",
        "PENDING",
        "2026-11-28T10:00:0" + (n % 10) + "Z",
        appended,
        visible,
        false);
  }

  @Test
  void everyStreamHoldingInvisibleRowsIsListedAndTheRestCounted() {
    List<EmulatorStatus.Stream> streams = new ArrayList<>();
    streams.add(stream(0, 1_500, 1_500)); // all visible: not listed
    for (int n = 1; n <= UnfinishedStreams.LISTED + 2; n++) {
      streams.add(stream(n, 1_200, 200));
    }
    String md = UnfinishedStreams.markdown(status(streams)).markdown();
    assertTrue(md.startsWith("**12,000 row(s) were appended and never made visible**"), md);
    assertTrue(
        md.contains(
            "| Stream | Table | Type | Created | Appended | Visible | Finalized |\n"
                + "|:---|:---|:---|:---|---:|---:|:---|\n"
                + "| s1 | ingestbench.taxi_rides | PENDING | 2026-11-28T10:00:01Z | 1,200 | 200 | no |\n"),
        md);
    assertTrue(!md.contains("| s0 |"), "a stream whose rows are all visible is not listed");
    assertTrue(md.contains("| s10 |") && !md.contains("| s11 |"), md);
    assertTrue(
        md.contains("and 2 more stream(s) (bigquery_emulator.json lists every stream)."), md);
    assertTrue(UnfinishedStreams.sentence(status(streams)).startsWith("12,000 row(s)"));
  }

  @Test
  void nothingWhenEveryAppendedRowIsVisible() {
    EmulatorStatus all = status(List.of(stream(0, 10, 10)));
    assertEquals("", UnfinishedStreams.markdown(all).markdown());
    assertNull(UnfinishedStreams.sentence(all));
  }
}
