package dev.ingestbench.contracts;

import java.util.List;

/**
 * Columns of {@link RunFiles#SCENARIO_SAMPLES}: what a running scenario measures for every job that
 * runs, one line per job per sampling interval (a second locally, the poll interval on Dataflow),
 * appended as it goes so a killed run keeps what it measured.
 */
public final class ScenarioSampleColumns {
  /** The first second of the interval the line covers. */
  public static final String EPOCH_SECOND = "epoch_second";

  public static final String STAGE = "stage";
  public static final String JOB = "job";

  /**
   * Rows the job appended to data tables in the interval: the BigQuery emulator's count locally,
   * the job's {@code recordsAppended} counter (BigQueryIO's Storage Write step) on Dataflow.
   */
  public static final String ROWS = "rows";

  /** Their input bytes locally; on Dataflow the bytes of the Pub/Sub messages the job converted. */
  public static final String BYTES = "bytes";

  /** The job's open AppendRows streams at the end of the second. */
  public static final String OPEN_CONNECTIONS = "open_connections";

  /**
   * CPU-seconds the job's consumer process (on Dataflow: its workers, as vCPU-seconds) used in the
   * interval.
   */
  public static final String CPU_SECONDS = "cpu_seconds";

  /** Distinct messages the job has written or dead-lettered so far. */
  public static final String ACCOUNTED_FOR = "accounted_for";

  /**
   * How many seconds the line covers: 1 locally, the poll interval on Dataflow. Absent in older
   * files: 1.
   */
  public static final String SECONDS = "seconds";

  public static final List<String> ALL =
      List.of(
          EPOCH_SECOND,
          STAGE,
          JOB,
          ROWS,
          BYTES,
          OPEN_CONNECTIONS,
          CPU_SECONDS,
          ACCOUNTED_FOR,
          SECONDS);

  private ScenarioSampleColumns() {}
}
