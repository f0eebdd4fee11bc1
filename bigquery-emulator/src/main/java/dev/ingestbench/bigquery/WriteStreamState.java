package dev.ingestbench.bigquery;

import com.google.cloud.bigquery.storage.v1.StorageError.StorageErrorCode;
import com.google.cloud.bigquery.storage.v1.WriteStream;
import io.grpc.Status;
import java.util.ArrayDeque;

/**
 * One Storage Write API stream with BigQuery's offset and visibility rules.
 *
 * <p>The default stream and COMMITTED streams make rows visible on append; BUFFERED streams when
 * flushed up to an offset; PENDING streams when committed after finalize. An append at the wrong
 * offset or to a finalized stream is refused with the error BigQuery sends.
 */
final class WriteStreamState {
  /** Where rows go once they are visible. */
  interface Visibility {
    void rowsVisible(WriteStreamState stream, VisibleRows rows);
  }

  final String name;
  final TableId table;
  final WriteStream.Type type;

  /** The view's {@code stream_type}: DEFAULT for {@code _default}, else the type's name. */
  final String streamType;

  final long createdMillis;

  private long appended;
  private long visibleUpTo;
  private boolean finalized;
  private long finalizedMillis;
  private long committedMillis = -1;
  private final ArrayDeque<VisibleRows> invisible = new ArrayDeque<>();

  WriteStreamState(String name, TableId table, WriteStream.Type type, boolean defaultStream) {
    this.name = name;
    this.table = table;
    this.type = type;
    this.streamType = defaultStream ? "DEFAULT" : type.name();
    this.createdMillis = System.currentTimeMillis();
  }

  synchronized long appended() {
    return appended;
  }

  /**
   * Appended and visible rows read together (an append or flush between two separate reads could
   * show more visible than appended rows). Visible: all of a COMMITTED stream's, a BUFFERED one's
   * up to its flush, a PENDING one's once committed.
   */
  synchronized long[] appendedAndVisible() {
    return new long[] {appended, visibleUpTo};
  }

  synchronized boolean finalized() {
    return finalized;
  }

  synchronized long finalizedMillis() {
    return finalizedMillis;
  }

  /**
   * What GetWriteStream reports as {@code commit_time}, or -1 for none. The reference: "If a stream
   * is of COMMITTED type, then it will have a commit_time same as create_time. If the stream is of
   * PENDING type, empty commit_time means it is not committed."
   */
  synchronized long commitTimeMillis() {
    return type == WriteStream.Type.COMMITTED ? createdMillis : committedMillis;
  }

  /**
   * Appends {@code rows} at {@code offset} (-1: wherever the stream ends, as on the default
   * stream). Returns the offset the rows were written at.
   *
   * @throws WriteApiException as BigQuery refuses the append
   */
  synchronized long append(long offset, VisibleRows rows, Visibility visibility) {
    if (offset >= 0 && streamType.equals("DEFAULT")) {
      // AppendRowsRequest.offset: "Specifying a value for this field is not allowed when calling
      // AppendRows for the '_default' stream."
      throw WriteApiException.invalid(
          name,
          "Offset is not allowed on the default stream: "
              + name
              + "; append without an offset, or create a COMMITTED stream to append at offsets");
    }
    if (finalized) { // a committed stream is finalized too
      throw new WriteApiException(
          Status.Code.INVALID_ARGUMENT,
          StorageErrorCode.STREAM_FINALIZED,
          name,
          "Stream is finalized: " + name);
    }
    if (offset >= 0 && offset != appended) {
      boolean behind = offset < appended;
      throw new WriteApiException(
          behind ? Status.Code.ALREADY_EXISTS : Status.Code.OUT_OF_RANGE,
          behind ? StorageErrorCode.OFFSET_ALREADY_EXISTS : StorageErrorCode.OFFSET_OUT_OF_RANGE,
          name,
          // The client parses "expected offset N, received M" out of this text.
          "Offset "
              + (behind ? "already exists" : "out of range")
              + ": expected offset "
              + appended
              + ", received "
              + offset);
    }
    long at = appended;
    appended += rows.count();
    if (type == WriteStream.Type.COMMITTED) {
      visibleUpTo = appended;
      visibility.rowsVisible(this, rows);
    } else {
      invisible.addLast(rows);
    }
    return at;
  }

  /** BUFFERED: makes rows up to and including {@code offset} visible. */
  synchronized void flush(long offset, Visibility visibility) {
    if (type != WriteStream.Type.BUFFERED) {
      throw new WriteApiException(
          Status.Code.INVALID_ARGUMENT,
          StorageErrorCode.INVALID_STREAM_TYPE,
          name,
          "FlushRows is only for BUFFERED streams; " + name + " is " + streamType);
    }
    if (offset >= appended) {
      throw new WriteApiException(
          Status.Code.OUT_OF_RANGE,
          StorageErrorCode.OFFSET_OUT_OF_RANGE,
          name,
          "Flush offset "
              + offset
              + " is beyond the end of "
              + name
              + ", which holds "
              + appended
              + " rows");
    }
    long remaining = offset + 1 - visibleUpTo;
    while (remaining > 0 && !invisible.isEmpty()) {
      VisibleRows head = invisible.removeFirst();
      if (head.count() <= remaining) {
        visibility.rowsVisible(this, head);
        remaining -= head.count();
        visibleUpTo += head.count();
      } else {
        int take = (int) remaining;
        visibility.rowsVisible(this, head.slice(0, take));
        invisible.addFirst(head.slice(take, head.count() - take));
        visibleUpTo += take;
        remaining = 0;
      }
    }
  }

  /** Refuses further appends; returns the row count. The default stream cannot be finalized. */
  synchronized long finalizeStream() {
    if (streamType.equals("DEFAULT")) {
      throw WriteApiException.invalid(name, "The default stream cannot be finalized: " + name);
    }
    if (!finalized) {
      finalized = true;
      finalizedMillis = System.currentTimeMillis();
    }
    return appended;
  }

  /** PENDING: checks that a commit may make this stream's rows visible. */
  synchronized void checkCommittable() {
    if (type != WriteStream.Type.PENDING) {
      // StorageErrorCode.INVALID_STREAM_TYPE: "For example, you try to commit a stream that is not
      // pending."
      throw new WriteApiException(
          Status.Code.INVALID_ARGUMENT,
          StorageErrorCode.INVALID_STREAM_TYPE,
          name,
          "Only PENDING streams are committed; " + name + " is " + streamType);
    }
    if (committedMillis >= 0) {
      // BatchCommitWriteStreams: streams "cannot be committed multiple times".
      throw new WriteApiException(
          Status.Code.INVALID_ARGUMENT,
          StorageErrorCode.STREAM_ALREADY_COMMITTED,
          name,
          "Stream is already committed: " + name);
    }
    if (!finalized) {
      throw new WriteApiException(
          Status.Code.INVALID_ARGUMENT,
          StorageErrorCode.INVALID_STREAM_STATE,
          name,
          "Stream is not finalized: " + name);
    }
  }

  /** PENDING: makes every row visible at once (after {@link #checkCommittable}). */
  synchronized void commit(Visibility visibility, long commitMillis) {
    committedMillis = commitMillis;
    while (!invisible.isEmpty()) {
      VisibleRows rows = invisible.removeFirst();
      visibleUpTo += rows.count();
      visibility.rowsVisible(this, rows);
    }
  }
}
