package dev.ingestbench.bigquery;

import java.util.List;

/**
 * How the local BigQuery listens and which of BigQuery's limits it enforces.
 *
 * @param port the Storage Write API's gRPC port (0: a free one)
 * @param restPort the REST API's port (0: a free one)
 * @param quotaMbPerSecond regional append throughput in MB/s (10^6 bytes); 0 disables the quota
 * @param quotaWindowSeconds how long a quota budget lasts before it refills ({@link
 *     ThroughputQuota})
 * @param maxConnections AppendRows streams open at once before new ones get RESOURCE_EXHAUSTED
 * @param maxRequestBytes the largest AppendRows request accepted
 * @param quotaMode {@code throttle} (slow appends once the budget is spent, the regional quota),
 *     {@code reject} (refuse them with RESOURCE_EXHAUSTED until it refills, the short-term quota)
 *     or {@code two-tier} (the short-term cell quota under the regional one, both refusing: {@link
 *     QuotaTiers})
 * @param api the limits on the calls around appending: tables.get and insert, CreateWriteStream
 * @param cellQuota the short-term (cell) quota under the regional one in {@code two-tier} mode
 */
public record EmulatorSettings(
    String host,
    int port,
    int restPort,
    double quotaMbPerSecond,
    double quotaWindowSeconds,
    int maxConnections,
    long maxRequestBytes,
    Faults faults,
    String quotaMode,
    ApiLimits api,
    CellQuota cellQuota) {

  /**
   * The short-term quota of {@code --quota-mode two-tier}: a cell's budget, refilled "within ~10 s"
   * (apache/beam PR #31837). Its rate is not published; by default it is twice the regional one, so
   * a burst passes the cell while the regional budget lasts and a sustained rate between the two
   * spends the regional budget: both tiers can refuse.
   *
   * @param mbPerSecond the cell's rate in MB/s (10^6 bytes)
   * @param windowSeconds how long its budget lasts before it refills
   */
  public record CellQuota(double mbPerSecond, double windowSeconds) {}

  /** The cell's default rate, as a multiple of the regional quota (an assumption, see above). */
  public static final double DEFAULT_CELL_RATE_FACTOR = 2;

  /** 18,874,368,000 bytes per minute, the regional quota the published rounds read: 300 MiB/s. */
  public static final double DEFAULT_QUOTA_MB_PER_SECOND = 314.5728;

  /** Beam's maintainers: the regional quota refills "within ~10 min". */
  public static final double DEFAULT_QUOTA_WINDOW_SECONDS = 600;

  public static final int DEFAULT_MAX_CONNECTIONS = 1_000;

  /** BigQuery's AppendRows request limit. */
  public static final long DEFAULT_MAX_REQUEST_BYTES = 10_000_000;

  public static final String THROTTLE = "throttle";
  public static final String REJECT = "reject";
  public static final String TWO_TIER = "two-tier";

  /**
   * The short-term quota's refill, "up to 10 s" (apache/beam#31837): reject mode's default window.
   */
  public static final double DEFAULT_REJECT_WINDOW_SECONDS = 10;

  /** BigQuery's limits on free loopback ports, no faults: what tests and rounds start with. */
  public static EmulatorSettings defaults() {
    return new EmulatorSettings(
        "127.0.0.1",
        0,
        0,
        DEFAULT_QUOTA_MB_PER_SECOND,
        DEFAULT_QUOTA_WINDOW_SECONDS,
        DEFAULT_MAX_CONNECTIONS,
        DEFAULT_MAX_REQUEST_BYTES,
        Faults.NONE,
        THROTTLE,
        ApiLimits.DEFAULTS,
        new CellQuota(
            DEFAULT_CELL_RATE_FACTOR * DEFAULT_QUOTA_MB_PER_SECOND, DEFAULT_REJECT_WINDOW_SECONDS));
  }

  public EmulatorSettings withLimits(
      double quotaMbPerSecond,
      double quotaWindowSeconds,
      int maxConnections,
      long maxRequestBytes) {
    return new EmulatorSettings(
        host,
        port,
        restPort,
        quotaMbPerSecond,
        quotaWindowSeconds,
        maxConnections,
        maxRequestBytes,
        faults,
        quotaMode,
        api,
        cellQuota);
  }

  public EmulatorSettings withQuotaMode(String mode) {
    return new EmulatorSettings(
        host,
        port,
        restPort,
        quotaMbPerSecond,
        quotaWindowSeconds,
        maxConnections,
        maxRequestBytes,
        faults,
        mode,
        api,
        cellQuota);
  }

  public EmulatorSettings withFaults(List<String> specs) {
    return new EmulatorSettings(
        host,
        port,
        restPort,
        quotaMbPerSecond,
        quotaWindowSeconds,
        maxConnections,
        maxRequestBytes,
        Faults.parse(specs),
        quotaMode,
        api,
        cellQuota);
  }

  public EmulatorSettings withApiLimits(ApiLimits limits) {
    return new EmulatorSettings(
        host,
        port,
        restPort,
        quotaMbPerSecond,
        quotaWindowSeconds,
        maxConnections,
        maxRequestBytes,
        faults,
        quotaMode,
        limits,
        cellQuota);
  }

  public EmulatorSettings withCellQuota(CellQuota cell) {
    return new EmulatorSettings(
        host,
        port,
        restPort,
        quotaMbPerSecond,
        quotaWindowSeconds,
        maxConnections,
        maxRequestBytes,
        faults,
        quotaMode,
        api,
        cell);
  }

  /** Checks every value, naming the flag and the fix. */
  public EmulatorSettings validate() {
    if (port < 0 || port > 65535 || restPort < 0 || restPort > 65535) {
      throw new IllegalArgumentException("--port and --rest-port must be 0 (a free port) to 65535");
    }
    if (!(quotaMbPerSecond >= 0)) {
      throw new IllegalArgumentException(
          "--quota-mb-per-second must be 0 (no quota) or more, e.g. 314.57");
    }
    if (!(quotaWindowSeconds > 0)) {
      throw new IllegalArgumentException(
          "--quota-window-seconds must be above 0, e.g. 600 (BigQuery) or 30 (a short local round)");
    }
    if (!THROTTLE.equals(quotaMode) && !REJECT.equals(quotaMode) && !TWO_TIER.equals(quotaMode)) {
      throw new IllegalArgumentException(
          "--quota-mode must be throttle (slow appends once the budget is spent), reject (refuse"
              + " them with RESOURCE_EXHAUSTED until it refills) or two-tier (a short-term cell"
              + " quota under the regional one, both refusing while they refill), not '"
              + quotaMode
              + "'");
    }
    if (TWO_TIER.equals(quotaMode) && quotaMbPerSecond > 0) { // 0: no quota, no tiers
      if (!(cellQuota.mbPerSecond() > 0)) {
        throw new IllegalArgumentException(
            "--cell-quota-mb-per-second must be above 0, e.g. twice --quota-mb-per-second");
      }
      if (!(cellQuota.windowSeconds() > 0 && cellQuota.windowSeconds() < quotaWindowSeconds)) {
        throw new IllegalArgumentException(
            String.format(
                java.util.Locale.ROOT,
                "--cell-quota-window-seconds must be above 0 and shorter than"
                    + " --quota-window-seconds (%s s): the cell refills sooner than the region,"
                    + " e.g. 10",
                quotaWindowSeconds));
      }
    }
    if (maxConnections < 1) {
      throw new IllegalArgumentException("--max-connections must be 1 or more, e.g. 1000");
    }
    if (maxRequestBytes < 1) {
      throw new IllegalArgumentException("--max-request-bytes must be 1 or more, e.g. 10000000");
    }
    api.validate();
    return this;
  }
}
