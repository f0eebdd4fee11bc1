package dev.ingestbench.contracts;

import java.util.List;

/**
 * Header of {@link RunFiles#CONNECTIONS}: what Cloud Monitoring's {@code
 * bigquerystorage.googleapis.com/write/concurrent_connections} would show for a local round, per
 * second and job ({@code *} for all jobs together).
 */
public final class ConnectionColumns {
  public static final String EPOCH_SECOND = "epoch_second";
  public static final String JOB = "job";

  /** Most AppendRows streams open at once during the second. */
  public static final String MAX_OPEN = "max_open";

  /** Streams opened during the second. */
  public static final String OPENED = "opened";

  /** Streams refused during the second because the connection limit was reached. */
  public static final String REFUSED = "refused";

  /**
   * Microseconds the BigQuery emulator spent answering the job's appends that it answered during
   * the second (arrival to answer, a quota's hold included): divided by the connections open, the
   * share of the second the sink kept each waiting. Absent from files written before it was kept.
   */
  public static final String APPEND_SERVER_MICROS = "append_server_us";

  public static final List<String> ALL =
      List.of(EPOCH_SECOND, JOB, MAX_OPEN, OPENED, REFUSED, APPEND_SERVER_MICROS);

  /** The {@link #JOB} of the rows that count every job. */
  public static final String ALL_JOBS = "*";

  private ConnectionColumns() {}
}
