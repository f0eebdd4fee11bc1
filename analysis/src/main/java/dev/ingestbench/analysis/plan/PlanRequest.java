package dev.ingestbench.analysis.plan;

import dev.ingestbench.contracts.job.TableCreation;
import dev.ingestbench.contracts.job.TableRouting;
import dev.ingestbench.contracts.job.TableSkew;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a user wants to ingest ({@code ingestbench plan}'s flags), checked before anything is
 * computed.
 *
 * @param rowsPerSecond per job
 * @param messageSize bytes per message
 * @param messageFormat {@code json} or {@code avro}
 * @param source {@code pubsub} or {@code kafka}
 * @param rowEncoding {@code tablerow}, {@code beam-row} or {@code proto}
 * @param rowFormat {@code json-column} or {@code typed}
 * @param writeMethod {@code exactly-once} or {@code at-least-once}
 * @param cpuTarget the share of each worker's CPU the plan may use (headroom for spikes and
 *     catch-up)
 * @param quotaMbPerSecond the region's Storage Write API throughput quota
 * @param tableSkew how rows spread over the destination tables
 * @param tableCreation when the tables are made: as the write reaches them, or ahead
 * @param maxPoolConnections Beam's {@code --maxConnectionPoolConnections}: the pool's most
 *     connections per worker and region (Beam's default 20)
 */
public record PlanRequest(
    double rowsPerSecond,
    int messageSize,
    String messageFormat,
    String source,
    String rowEncoding,
    String rowFormat,
    int destinationTables,
    String writeMethod,
    boolean connectionPool,
    int jobs,
    String machineType,
    double cpuTarget,
    double quotaMbPerSecond,
    TableSkew tableSkew,
    TableCreation tableCreation,
    int maxPoolConnections) {

  /** Beam's default pool maximum ({@code --maxConnectionPoolConnections}). */
  public static final int DEFAULT_MAX_POOL_CONNECTIONS = 20;

  /** A request with uniform tables made as the write reaches them, and Beam's pool default. */
  public PlanRequest(
      double rowsPerSecond,
      int messageSize,
      String messageFormat,
      String source,
      String rowEncoding,
      String rowFormat,
      int destinationTables,
      String writeMethod,
      boolean connectionPool,
      int jobs,
      String machineType,
      double cpuTarget,
      double quotaMbPerSecond) {
    this(
        rowsPerSecond,
        messageSize,
        messageFormat,
        source,
        rowEncoding,
        rowFormat,
        destinationTables,
        writeMethod,
        connectionPool,
        jobs,
        machineType,
        cpuTarget,
        quotaMbPerSecond,
        TableSkew.UNIFORM,
        TableCreation.IF_NEEDED,
        DEFAULT_MAX_POOL_CONNECTIONS);
  }

  /** The regional quota the published investigation read from its project: 300 MiB/s. */
  public static final double REGIONAL_QUOTA_MB_PER_SECOND = 314.5728;

  private static final Pattern MACHINE = Pattern.compile("[a-z][a-z0-9]*-[a-z]+-(\\d{1,3})");

  /** Every check; each names the flag and the fix. */
  public PlanRequest validate() {
    require(
        rowsPerSecond > 0,
        "--rows-per-second " + plain(rowsPerSecond) + " must be above 0, e.g. 100000");
    require(
        messageSize >= 1 && messageSize <= 10_000_000,
        "--message-size " + messageSize + " must be between 1 and 10000000 bytes, e.g. 500");
    require(
        messageFormat.equals("json") || messageFormat.equals("avro"),
        "--message-format " + messageFormat + " is not known; use json or avro");
    require(
        source.equals("pubsub") || source.equals("kafka"),
        "--source " + source + " is not known; use pubsub or kafka");
    require(
        rowEncoding.equals("tablerow")
            || rowEncoding.equals("beam-row")
            || rowEncoding.equals("proto"),
        "--row-encoding " + rowEncoding + " is not known; use tablerow, beam-row or proto");
    require(
        rowFormat.equals("json-column") || rowFormat.equals("typed"),
        "--row-format " + rowFormat + " is not known; use json-column or typed");
    require(
        rowEncoding.equals("tablerow") || rowFormat.equals("typed"),
        "--row-encoding " + rowEncoding + " writes typed rows: add --row-format typed");
    require(
        destinationTables >= 1 && destinationTables <= TableRouting.MAX_TABLES,
        "--destination-tables " + TableRouting.outOfRange(destinationTables));
    require(
        maxPoolConnections >= 2,
        "--max-connection-pool-connections "
            + maxPoolConnections
            + " must be 2 or more (Beam's pool keeps at least 2), e.g. "
            + DEFAULT_MAX_POOL_CONNECTIONS);
    require(
        writeMethod.equals("exactly-once") || writeMethod.equals("at-least-once"),
        "--write-method " + writeMethod + " is not known; use exactly-once or at-least-once");
    require(
        !connectionPool || writeMethod.equals("at-least-once"),
        "--connection-pool is Beam's at-least-once connection pool; add --write-method"
            + " at-least-once or drop it");
    require(jobs >= 1, "--jobs " + jobs + " must be 1 or more");
    require(
        MACHINE.matcher(machineType).matches(),
        "--machine-type "
            + machineType
            + " is not a Compute Engine machine type with its vCPUs at the end, e.g. n2-highcpu-8");
    require(
        cpuTarget > 0 && cpuTarget <= 1,
        "--cpu-target " + plain(cpuTarget) + " must be above 0 and at most 1, e.g. 0.8");
    require(
        quotaMbPerSecond > 0,
        "--quota-mb-per-second " + plain(quotaMbPerSecond) + " must be above 0, e.g. 314.5728");
    return this;
  }

  /** The vCPUs of {@link #machineType}: the number its name ends with. */
  public int machineVcpus() {
    Matcher m = MACHINE.matcher(machineType.toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalStateException("validate() first");
    }
    return Integer.parseInt(m.group(1));
  }

  /** {@code 0} rather than {@code 0.0}: a flag's value as the user would have typed it. */
  private static String plain(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15
        ? Long.toString((long) value)
        : Double.toString(value);
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
