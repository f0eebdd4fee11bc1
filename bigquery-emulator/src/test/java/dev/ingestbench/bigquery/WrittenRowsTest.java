package dev.ingestbench.bigquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.DeadLetterSample;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class WrittenRowsTest {
  @Test
  void countsDistinctDuplicatesAndDeadLettersOncePerMessage() {
    WrittenRows written = new WrittenRows();
    long now = 10_000;
    written.recordWritten(
        new long[] {0, 1, 2, 1}, new long[] {9_000_000, 9_000_000, 9_500_000, 9_000_000}, 4, now);
    written.recordWritten(new long[] {RowScanner.ABSENT}, new long[] {RowScanner.ABSENT}, 1, now);
    written.recordDeadLetter(3, new DeadLetterSample("parse", "bad json", 3L, 4L, "e30K"));
    written.recordDeadLetter(
        RowScanner.ABSENT, new DeadLetterSample("decode", "no index", null, 0L, ""));
    WrittenRows.Snapshot s = written.snapshot();
    assertEquals(5, s.rowsWritten());
    assertEquals(3, s.distinctEventIndexes());
    assertEquals(1, s.duplicates());
    assertEquals(1, s.unindexedRows());
    assertEquals(2, s.deadLetterRows());
    assertEquals(
        4,
        s.accountedFor(),
        "0,1,2 written + 3 dead-lettered; an unindexed dead letter stands for no message");
    assertEquals(1_000, written.latencies().all().p99Ms(), 10);
    assertEquals(List.of("bad json", "no index"), s.deadLetterErrors());
    assertEquals(
        List.of("parse", "decode"),
        s.deadLetterSamples().stream().map(DeadLetterSample::stage).toList());
  }

  @Test
  void aSecondRowOfAnEventIsTheSinksUnderItsMessageIdAndTheSourcesUnderAnother() {
    WrittenRows written = new WrittenRows(4);
    long[] times = {1, 1, 1, 1};
    written.recordWritten(
        new long[] {0, 1, 2, 3}, times, new long[] {10, 11, 12, 13}, null, null, 4, 5, null);
    // Index 1 again under its own id (the sink wrote it twice), index 2 under another id twice (the
    // source carried it twice; its second copy then written again by the sink), index 3 with no id.
    written.recordWritten(
        new long[] {1, 2, 2, 3},
        times,
        new long[] {11, 99, 99, RowScanner.ABSENT},
        null,
        null,
        4,
        5,
        null);
    WrittenRows.Snapshot s = written.snapshot();
    assertEquals(8, s.rowsWritten());
    assertEquals(4, s.distinctEventIndexes());
    assertEquals(1, s.sourceDuplicates(), "index 2 under message 99");
    assertEquals(
        3, s.duplicates(), "index 1 under its own id, message 99 again, index 3 without an id");
    assertEquals(4, s.accountedFor());
  }

  @Test
  void rowsOutsideThePublishedRangeAreForeignNotAccountedFor() {
    WrittenRows written = new WrittenRows(3); // the publisher wrote indexes 0, 1, 2
    written.recordWritten(new long[] {0, 1, 7, 7, -4}, new long[] {1, 1, 1, 1, 1}, 5, 10_000);
    written.recordDeadLetter(
        900_000_001L, new DeadLetterSample("parse", "not ours", 900_000_001L, 1L, "eA=="));
    WrittenRows.Snapshot s = written.snapshot();
    assertEquals(2, s.distinctEventIndexes());
    assertEquals(2, s.accountedFor(), "index 2 is missing: foreign rows must not stand in for it");
    assertEquals(4, s.foreignRows());
    assertEquals(
        0, s.duplicates(), "a foreign index seen twice is foreign, not a duplicate of ours");
    assertEquals(5, s.rowsWritten());
  }

  @Test
  void liveLatencyCountsOnlyMessagesPublishedAfterTheConsumerCaughtUp() {
    WrittenRows written = new WrittenRows();
    // A backlog published at 0..9 s, all visible at 100 s; then live traffic published at 101..120
    // s,
    // each message visible one second later.
    for (long s = 0; s < 10; s++) {
      written.recordWritten(new long[] {s}, new long[] {s * 1_000_000}, 1, 100_000);
    }
    for (long s = 101; s <= 120; s++) {
      written.recordWritten(new long[] {s}, new long[] {s * 1_000_000}, 1, s * 1_000 + 1_000);
    }
    WrittenRows.Latencies l = written.latencies();
    assertEquals(
        "1970-01-01T00:01:40Z", l.caughtUpAt(), "caught up when the backlog became visible");
    assertEquals(20, l.live().samples());
    assertEquals(1_000, l.live().p99Ms(), 10);
    assertEquals(10, l.backlog().samples());
    assertEquals(95_000, l.backlog().p50Ms(), 1_000);
    assertEquals(30, l.all().samples());
  }

  @Test
  void aConsumerThatNeverCatchesUpHasNoLiveLatency() {
    WrittenRows written = new WrittenRows();
    // Every message waits longer than the one before: the queue never drains while messages arrive.
    for (long s = 0; s < 10; s++) {
      written.recordWritten(new long[] {s}, new long[] {s * 1_000_000}, 1, 100_000 + s * 10_000);
    }
    WrittenRows.Latencies l = written.latencies();
    assertEquals(
        "1970-01-01T00:03:10Z",
        l.caughtUpAt(),
        "caught up only when the last message became visible");
    assertNull(l.live(), "no message was published after the consumer caught up");
    assertEquals(10, l.backlog().samples());
  }

  @Test
  void startUpQueueingIsNotLiveLatency() {
    WrittenRows written = new WrittenRows();
    // Published once a second from 0 s; the consumer writes its first row at 20 s and drains the
    // queue by 26 s; from then on each message is visible 1 s after it was published.
    for (long s = 0; s < 60; s++) {
      long visible = Math.max(s + 1, 20 + s / 3);
      written.recordWritten(new long[] {s}, new long[] {s * 1_000_000}, 1, visible * 1_000);
    }
    WrittenRows.Latencies l = written.latencies();
    assertEquals(1_000, l.live().p50Ms(), 10, "live latency is the pipeline's, not the start-up's");
    assertTrue(
        l.live().maxMs() <= (CatchUpLatency.LAG_SECONDS + 1) * 1_000,
        "right after catch-up a message queues behind at most LAG_SECONDS of older ones: "
            + l.live());
    assertTrue(l.backlog().maxMs() >= 19_000, "the first message waited for the start-up");
  }

  /**
   * The verifier's memory is bounded by the range it verifies, not by the largest index a row
   * claims.
   */
  @Test
  void aHugeIndexIsForeignAndCostsNoMemory() {
    WrittenRows unknownRange = new WrittenRows();
    unknownRange.recordWritten(
        new long[] {Integer.MAX_VALUE - 1, 7},
        new long[] {RowScanner.ABSENT, RowScanner.ABSENT},
        2,
        0);
    WrittenRows.Snapshot s = unknownRange.snapshot();
    assertEquals(1, s.unindexedRows(), "not verifiable, but handled: a run does not wait for it");
    assertEquals(1, s.distinctEventIndexes());
    assertTrue(
        unknownRange.accounted().size() <= 64,
        "one word of bits, not 256 MB: " + unknownRange.accounted().size());
    WrittenRows published = new WrittenRows(100);
    published.recordDeadLetter(Integer.MAX_VALUE - 1, null);
    assertEquals(1, published.snapshot().foreignRows());
    assertTrue(published.accounted().size() <= 64);
  }

  /** What a client sends cannot grow the status every consumer reads once a second. */
  @Test
  void aHugeDeadLetterIsKeptAsItsFirstBytesAndItsSize() {
    WrittenRows written = new WrittenRows();
    byte[] payload = new byte[9_000_000];
    Arrays.fill(payload, (byte) 'x');
    String error = "e".repeat(100_000);
    for (int i = 0; i < 30; i++) {
      written.recordDeadLetter(
          i,
          new DeadLetterSample(
              "size",
              error,
              (long) i,
              (long) payload.length,
              Base64.getEncoder().encodeToString(payload)));
    }
    WrittenRows.Snapshot s = written.snapshot();
    assertEquals(20, s.deadLetterSamples().size());
    DeadLetterSample first = s.deadLetterSamples().get(0);
    assertEquals(WrittenRows.SAMPLE_PAYLOAD_BYTES, first.payload().length);
    assertEquals(9_000_000L, first.payloadBytes(), "the whole size is still said");
    assertTrue(
        first.error().length() < 2_100 && first.error().endsWith("(100000 characters)"),
        first.error().length() + "");
    long kept =
        s.deadLetterSamples().stream()
                .mapToLong(d -> d.payloadBase64().length() + d.error().length())
                .sum()
            + s.deadLetterErrors().stream().mapToLong(String::length).sum();
    assertTrue(kept < 300_000, "samples keep " + kept + " characters (9 MB each before)");
  }
}
