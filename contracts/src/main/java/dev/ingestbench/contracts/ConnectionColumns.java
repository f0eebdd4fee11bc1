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

  public static final List<String> ALL = List.of(EPOCH_SECOND, JOB, MAX_OPEN, OPENED, REFUSED);

  /** The {@link #JOB} of the rows that count every job. */
  public static final String ALL_JOBS = "*";

  private ConnectionColumns() {}
}
