package dev.ingestbench.consumer.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.api.services.bigquery.model.TableReference;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

class LocalWriteStreamTest {
  private final List<Long> visible = new ArrayList<>();
  private final BiConsumer<LocalWriteStream, VisibleRows> sink =
      (stream, rows) -> {
        for (int i = 0; i < rows.count(); i++) {
          visible.add(rows.eventIndexes()[i]);
        }
      };

  private static LocalWriteStream stream(String type) {
    return new LocalWriteStream(
        "s", new TableReference().setProjectId("p").setDatasetId("d").setTableId("t"), type);
  }

  private static VisibleRows rows(long... indexes) {
    return new VisibleRows(indexes, new long[indexes.length], null, indexes.length);
  }

  @Test
  void defaultStreamRowsAreVisibleOnAppend() {
    LocalWriteStream stream = stream("DEFAULT");
    stream.append(-1, rows(1, 2), sink);
    stream.append(-1, rows(3), sink);
    assertEquals(List.of(1L, 2L, 3L), visible);
  }

  @Test
  void bufferedRowsBecomeVisibleOnlyUpToTheFlushedOffset() {
    LocalWriteStream stream = stream("BUFFERED");
    stream.append(0, rows(10, 11, 12), sink);
    stream.append(3, rows(13, 14), sink);
    assertEquals(List.of(), visible);
    stream.flush(3, sink); // rows at offsets 0..3 inclusive
    assertEquals(List.of(10L, 11L, 12L, 13L), visible);
    stream.flush(4, sink);
    assertEquals(List.of(10L, 11L, 12L, 13L, 14L), visible);
  }

  @Test
  void anAppendAtTheWrongOffsetIsRefusedWithBigQuerysErrorCode() {
    LocalWriteStream stream = stream("BUFFERED");
    stream.append(0, rows(1, 2), sink);
    assertEquals("ALREADY_EXISTS",
        assertThrows(LocalWriteStream.AppendRefusedException.class, () -> stream.append(1, rows(3), sink)).errorCode);
    assertEquals("OUT_OF_RANGE",
        assertThrows(LocalWriteStream.AppendRefusedException.class, () -> stream.append(5, rows(3), sink)).errorCode);
  }

  @Test
  void pendingRowsAppearAtCommitAndNotBefore() {
    LocalWriteStream stream = stream("PENDING");
    stream.append(0, rows(1, 2), sink);
    assertThrows(IllegalStateException.class, () -> stream.commit(sink));
    assertEquals(2, stream.finalizeStream());
    assertThrows(LocalWriteStream.AppendRefusedException.class, () -> stream.append(2, rows(3), sink));
    stream.commit(sink);
    assertEquals(List.of(1L, 2L), visible);
  }

  @Test
  void flushingPastTheEndIsAnError() {
    LocalWriteStream stream = stream("BUFFERED");
    stream.append(0, rows(1), sink);
    assertThrows(IllegalStateException.class, () -> stream.flush(1, sink));
  }
}
