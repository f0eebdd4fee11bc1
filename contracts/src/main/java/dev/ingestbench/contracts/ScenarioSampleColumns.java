package dev.ingestbench.contracts;

import java.util.List;

/**
 * Columns of {@link RunFiles#SCENARIO_SAMPLES}: what a running scenario measures each second for
 * every job that runs, appended as it goes so a killed run keeps what it measured.
 */
public final class ScenarioSampleColumns {
  public static final String EPOCH_SECOND = "epoch_second";
  public static final String STAGE = "stage";
  public static final String JOB = "job";
  /** Rows the job appended to data tables in this second (the BigQuery emulator's count). */
  public static final String ROWS = "rows";
  /** Their input bytes. */
  public static final String BYTES = "bytes";
  /** The job's open AppendRows streams at the end of the second. */
  public static final String OPEN_CONNECTIONS = "open_connections";
  /** CPU-seconds the job's consumer process used in this second. */
  public static final String CPU_SECONDS = "cpu_seconds";
  /** Distinct messages the job has written or dead-lettered so far. */
  public static final String ACCOUNTED_FOR = "accounted_for";

  public static final List<String> ALL =
      List.of(EPOCH_SECOND, STAGE, JOB, ROWS, BYTES, OPEN_CONNECTIONS, CPU_SECONDS, ACCOUNTED_FOR);

  private ScenarioSampleColumns() {}
}
