package dev.ingestbench.bigquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.cloud.bigquery.storage.v1.StorageError.StorageErrorCode;
import com.google.cloud.bigquery.storage.v1.WriteStream;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WriteStreamStateTest {
  private final List<Long> visible = new ArrayList<>();
  private final WriteStreamState.Visibility sink =
      (stream, rows) -> {
        for (int i = 0; i < rows.count(); i++) {
          visible.add(rows.eventIndexes()[i]);
        }
      };

  private static WriteStreamState stream(WriteStream.Type type) {
    return new WriteStreamState("s", new TableId("p", "d", "t"), type, false);
  }

  private static VisibleRows rows(long... indexes) {
    return new VisibleRows("job", indexes, new long[indexes.length], null, indexes.length);
  }

  @Test
  void defaultStreamRowsAreVisibleOnAppendAndCannotBeFinalized() {
    WriteStreamState stream =
        new WriteStreamState(
            "s/_default", new TableId("p", "d", "t"), WriteStream.Type.COMMITTED, true);
    assertEquals(0, stream.append(-1, rows(1, 2), sink));
    assertEquals(2, stream.append(-1, rows(3), sink));
    assertEquals(List.of(1L, 2L, 3L), visible);
    assertEquals("DEFAULT", stream.streamType);
    assertThrows(WriteApiException.class, stream::finalizeStream);
  }

  @Test
  void bufferedRowsBecomeVisibleOnlyUpToTheFlushedOffset() {
    WriteStreamState stream = stream(WriteStream.Type.BUFFERED);
    stream.append(0, rows(10, 11, 12), sink);
    stream.append(3, rows(13, 14), sink);
    assertEquals(List.of(), visible);
    stream.flush(3, sink); // rows at offsets 0..3 inclusive
    assertEquals(List.of(10L, 11L, 12L, 13L), visible);
    stream.flush(4, sink);
    assertEquals(List.of(10L, 11L, 12L, 13L, 14L), visible);
  }

  @Test
  void anAppendAtTheWrongOffsetIsRefusedWithTheErrorTheClientParses() {
    WriteStreamState stream = stream(WriteStream.Type.BUFFERED);
    stream.append(0, rows(1, 2), sink);
    WriteApiException behind =
        assertThrows(WriteApiException.class, () -> stream.append(1, rows(3), sink));
    assertEquals(Status.Code.ALREADY_EXISTS, behind.code);
    assertEquals(StorageErrorCode.OFFSET_ALREADY_EXISTS, behind.storageCode);
    assertEquals("Offset already exists: expected offset 2, received 1", behind.getMessage());
    WriteApiException ahead =
        assertThrows(WriteApiException.class, () -> stream.append(5, rows(3), sink));
    assertEquals(Status.Code.OUT_OF_RANGE, ahead.code);
    assertEquals(StorageErrorCode.OFFSET_OUT_OF_RANGE, ahead.storageCode);
  }

  @Test
  void pendingRowsAppearAtCommitAndNotBefore() {
    WriteStreamState stream = stream(WriteStream.Type.PENDING);
    stream.append(0, rows(1, 2), sink);
    assertThrows(WriteApiException.class, stream::checkCommittable);
    assertEquals(2, stream.finalizeStream());
    WriteApiException finalized =
        assertThrows(WriteApiException.class, () -> stream.append(2, rows(3), sink));
    assertEquals(StorageErrorCode.STREAM_FINALIZED, finalized.storageCode);
    stream.checkCommittable();
    assertEquals(-1, stream.commitTimeMillis(), "finalized, not committed: no commit_time");
    stream.commit(sink, 1234);
    assertEquals(List.of(1L, 2L), visible);
    assertEquals(1234, stream.commitTimeMillis());
    assertEquals(
        StorageErrorCode.STREAM_ALREADY_COMMITTED,
        assertThrows(WriteApiException.class, stream::checkCommittable).storageCode,
        "committed once only");
  }

  @Test
  void flushingPastTheEndIsOutOfRange() {
    WriteStreamState stream = stream(WriteStream.Type.BUFFERED);
    stream.append(0, rows(1), sink);
    assertEquals(
        Status.Code.OUT_OF_RANGE,
        assertThrows(WriteApiException.class, () -> stream.flush(1, sink)).code);
  }
}
