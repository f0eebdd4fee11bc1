package dev.ingestbench.bigquery;

/**
 * BigQuery's limits on the calls around appending, the ones that bite with many tables.
 *
 * @param tablesPerSecond tables.get and tables.insert requests per second, each method on its own
 *     (BigQuery: "up to 100 API requests per second, per user, per project to an API method";
 *     Beam's CREATE_IF_NEEDED calls tables.get per destination and worker, apache/beam#25112);
 *     beyond it the call is refused as the service refuses it; 0: no limit
 * @param createWriteStreamPerSecond CreateWriteStream calls per second above which each call takes
 *     longer (BigQuery's guidance: above 40-50 calls a second "the latency of the API calls grows
 *     substantially (>25s)"); 0: no slowdown
 * @param createWriteStreamSlowdownMs how much longer a CreateWriteStream call takes per call a
 *     second above {@code createWriteStreamPerSecond}: at the default 500 ms, 90 calls a second
 *     take 25 s each, as the guidance says
 */
public record ApiLimits(
    double tablesPerSecond, double createWriteStreamPerSecond, double createWriteStreamSlowdownMs) {

  public static final double DEFAULT_TABLES_PER_SECOND = 100;
  public static final double DEFAULT_CREATE_WRITE_STREAM_PER_SECOND = 40;
  public static final double DEFAULT_CREATE_WRITE_STREAM_SLOWDOWN_MS = 500;

  /** The longest a CreateWriteStream call is held: beyond what the guidance reports. */
  static final long MAX_SLOWDOWN_MS = 60_000;

  public static final ApiLimits DEFAULTS =
      new ApiLimits(
          DEFAULT_TABLES_PER_SECOND,
          DEFAULT_CREATE_WRITE_STREAM_PER_SECOND,
          DEFAULT_CREATE_WRITE_STREAM_SLOWDOWN_MS);

  /** Checks every value, naming the flag and the fix. */
  ApiLimits validate() {
    if (!(tablesPerSecond == 0 || (tablesPerSecond >= 1 && tablesPerSecond <= 1e9))) {
      throw new IllegalArgumentException(
          "--tables-api-quota must be 0 (no limit) or 1 to 1,000,000,000 requests a second, e.g."
              + " 100");
    }
    if (!(createWriteStreamPerSecond >= 0 && createWriteStreamPerSecond <= 1e9)) {
      throw new IllegalArgumentException(
          "--create-write-stream-threshold must be 0 (no slowdown) or more calls a second, e.g. 40");
    }
    if (!(createWriteStreamSlowdownMs >= 0 && createWriteStreamSlowdownMs <= MAX_SLOWDOWN_MS)) {
      throw new IllegalArgumentException(
          "--create-write-stream-slowdown-ms must be 0 to "
              + MAX_SLOWDOWN_MS
              + " milliseconds per call a second above the threshold, e.g. 500");
    }
    return this;
  }
}
