package dev.ingestbench.analysis.model;

import dev.ingestbench.contracts.RunFiles;
import java.time.Instant;

/**
 * One row of {@code INFORMATION_SCHEMA.WRITE_API_TIMELINE}: one bucket, table, stream type, error
 * code.
 */
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
  public record Key(
      Instant start,
      String projectId,
      String datasetId,
      String tableId,
      String streamType,
      String errorCode) {
    // Written out rather than the record's generated ones: those go through method handles, which
    // cost ~0.4 s over a day's 288,000 rows before the JIT has compiled them (analyze runs on C1).
    @Override
    public int hashCode() {
      int h = start.hashCode();
      h = 31 * h + projectId.hashCode();
      h = 31 * h + datasetId.hashCode();
      h = 31 * h + tableId.hashCode();
      h = 31 * h + streamType.hashCode();
      return 31 * h + errorCode.hashCode();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k
          && start.equals(k.start)
          && projectId.equals(k.projectId)
          && datasetId.equals(k.datasetId)
          && tableId.equals(k.tableId)
          && streamType.equals(k.streamType)
          && errorCode.equals(k.errorCode);
    }
  }

  public Key key() {
    return new Key(start, projectId, datasetId, tableId, streamType, errorCode);
  }

  public boolean isError() {
    return errorCode != null && !errorCode.isEmpty() && !errorCode.equals("OK");
  }
}
