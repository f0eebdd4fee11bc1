package dev.ingestbench.contracts;

import java.util.List;

/**
 * Header of {@link RunFiles#TABLES}: per job and data table, when its first and last rows were
 * appended and how many: when each of many destinations started, and how the rows spread over them.
 */
public final class TableAppendColumns {
  public static final String JOB = "job";
  public static final String TABLE_ID = "table_id";

  /** Epoch milliseconds of the table's first successful append. */
  public static final String FIRST_APPEND_MS = "first_append_ms";

  /** Epoch milliseconds of its last successful append. */
  public static final String LAST_APPEND_MS = "last_append_ms";

  /** Rows appended successfully (visible or not yet). */
  public static final String ROWS = "rows";

  public static final List<String> ALL =
      List.of(JOB, TABLE_ID, FIRST_APPEND_MS, LAST_APPEND_MS, ROWS);

  private TableAppendColumns() {}
}
