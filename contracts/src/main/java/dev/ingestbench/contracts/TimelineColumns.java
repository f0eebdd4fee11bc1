package dev.ingestbench.contracts;

import java.util.List;

/**
 * The columns of {@code INFORMATION_SCHEMA.WRITE_API_TIMELINE} that a local run writes, with the
 * view's own names and order, so the analysis reads a local run and a {@code bq} export alike.
 */
public final class TimelineColumns {
  public static final String START_TIMESTAMP = "start_timestamp";
  public static final String PROJECT_ID = "project_id";
  public static final String PROJECT_NUMBER = "project_number";
  public static final String DATASET_ID = "dataset_id";
  public static final String TABLE_ID = "table_id";
  public static final String STREAM_TYPE = "stream_type";
  public static final String ERROR_CODE = "error_code";
  public static final String TOTAL_REQUESTS = "total_requests";
  public static final String TOTAL_ROWS = "total_rows";
  public static final String TOTAL_INPUT_BYTES = "total_input_bytes";

  /** Every column a local run writes, in the view's order. */
  public static final List<String> ALL =
      List.of(
          START_TIMESTAMP,
          PROJECT_ID,
          PROJECT_NUMBER,
          DATASET_ID,
          TABLE_ID,
          STREAM_TYPE,
          ERROR_CODE,
          TOTAL_REQUESTS,
          TOTAL_ROWS,
          TOTAL_INPUT_BYTES);

  /** The columns without which a timeline cannot be analysed. */
  public static final List<String> REQUIRED =
      List.of(START_TIMESTAMP, TABLE_ID, TOTAL_ROWS, TOTAL_INPUT_BYTES);

  private TimelineColumns() {}
}
