package dev.ingestbench.analysis.model;

import dev.ingestbench.contracts.RunFiles;
import java.time.Instant;

/** One row of {@code INFORMATION_SCHEMA.WRITE_API_TIMELINE}: one bucket, table, stream type, error code. */
public record TimelineRow(
    Instant start,
    String projectId,
    String datasetId,
    String tableId,
    String streamType,
    String errorCode,
    long totalRequests,
    long totalRows,
    long totalInputBytes) {

  /** Dead-letter tables hold failures, not throughput. */
  public boolean isDeadLetterTable() {
    return RunFiles.isDeadLetterTable(tableId);
  }

  /** What identifies a row of the view: one per table, bucket, stream type and error code. */
  public record Key(Instant start, String projectId, String datasetId, String tableId, String streamType, String errorCode) {}

  public Key key() {
    return new Key(start, projectId, datasetId, tableId, streamType, errorCode);
  }

  public boolean isError() {
    return errorCode != null && !errorCode.isEmpty() && !errorCode.equals("OK");
  }
}
