package dev.ingestbench.consumer.sink;

import com.google.api.services.bigquery.model.TableReference;
import dev.ingestbench.contracts.RunFiles;
import java.util.ArrayDeque;
import java.util.function.BiConsumer;

/**
 * One Storage Write API stream of the local sink, with BigQuery's offset and visibility rules.
 *
 * <p>DEFAULT and COMMITTED streams make rows visible on append; BUFFERED streams when flushed up to
 * an offset; PENDING streams when committed after finalize. An append at the wrong offset or to a
 * finalized stream is refused, as BigQuery refuses it.
 */
final class LocalWriteStream {
  final String name;
  final String projectId;
  final String datasetId;
  final String tableId;
  /** DEFAULT, COMMITTED, BUFFERED or PENDING: the view's {@code stream_type}. */
  final String streamType;

  /** Rows appended so far; the offset the next append must carry. */
  long appended;

  private long visibleUpTo;
  private boolean finalized;
  private final ArrayDeque<VisibleRows> invisible = new ArrayDeque<>();

  LocalWriteStream(String name, TableReference table, String streamType) {
    this.name = name;
    this.projectId = table.getProjectId();
    this.datasetId = table.getDatasetId();
    this.tableId = table.getTableId();
    this.streamType = streamType;
  }

  boolean isDeadLetterTable() {
    return RunFiles.isDeadLetterTable(tableId);
  }

  /**
   * Appends {@code rows} at {@code offset} (-1: wherever the stream ends, as on the default stream).
   *
   * @throws AppendRefusedException with BigQuery's error code when the append is not allowed
   */
  synchronized void append(long offset, VisibleRows rows, BiConsumer<LocalWriteStream, VisibleRows> visible) {
    if (finalized) {
      throw new AppendRefusedException("STREAM_FINALIZED", "stream " + name + " is finalized");
    }
    if (offset >= 0 && offset != appended) {
      throw new AppendRefusedException(
          offset < appended ? "ALREADY_EXISTS" : "OUT_OF_RANGE",
          "append at offset " + offset + " to " + name + ", which holds " + appended + " rows");
    }
    appended += rows.count();
    if (streamType.equals("DEFAULT") || streamType.equals("COMMITTED")) {
      visibleUpTo = appended;
      visible.accept(this, rows);
    } else {
      invisible.addLast(rows);
    }
  }

  /** BUFFERED: makes rows up to and including {@code offset} visible. */
  synchronized void flush(long offset, BiConsumer<LocalWriteStream, VisibleRows> visible) {
    if (!streamType.equals("BUFFERED")) {
      throw new IllegalStateException("flush on " + streamType + " stream " + name);
    }
    if (offset >= appended) {
      throw new IllegalStateException(
          "flush to offset " + offset + " of " + name + ", which holds " + appended + " rows");
    }
    long remaining = offset + 1 - visibleUpTo;
    while (remaining > 0 && !invisible.isEmpty()) {
      VisibleRows head = invisible.removeFirst();
      if (head.count() <= remaining) {
        visible.accept(this, head);
        remaining -= head.count();
        visibleUpTo += head.count();
      } else {
        int take = (int) remaining;
        visible.accept(this, head.slice(0, take));
        invisible.addFirst(head.slice(take, head.count() - take));
        visibleUpTo += take;
        remaining = 0;
      }
    }
  }

  synchronized long finalizeStream() {
    finalized = true;
    return appended;
  }

  /** PENDING: makes every row visible at once; the stream must be finalized first. */
  synchronized void commit(BiConsumer<LocalWriteStream, VisibleRows> visible) {
    if (!streamType.equals("PENDING") || !finalized) {
      throw new IllegalStateException("commit of " + streamType + " stream " + name + " (finalized: " + finalized + ")");
    }
    while (!invisible.isEmpty()) {
      VisibleRows rows = invisible.removeFirst();
      visibleUpTo += rows.count();
      visible.accept(this, rows);
    }
  }

  /** An append BigQuery would refuse, with the error code the view records for it. */
  static final class AppendRefusedException extends RuntimeException {
    final String errorCode;

    AppendRefusedException(String errorCode, String message) {
      super(errorCode + ": " + message);
      this.errorCode = errorCode;
    }
  }
}
