package dev.ingestbench.bigquery;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The local BigQuery's limits and faults as command-line options, defined once for every command
 * that runs one ({@code bigquery-emulator}, and {@code round} for the emulator it starts): a
 * picocli mixin. An option not given keeps BigQuery's own default.
 */
public final class EmulatorLimitOptions {
  @Option(
      names = "--quota-mb-per-second",
      paramLabel = "MB/S",
      description =
          "BigQuery emulator: regional append throughput quota in MB/s; 0 disables it (default: "
              + EmulatorSettings.DEFAULT_QUOTA_MB_PER_SECOND
              + " = 300 MiB/s).")
  Double quotaMbPerSecond;

  @Option(
      names = "--quota-window-seconds",
      paramLabel = "SECONDS",
      description =
          "BigQuery emulator: how long a quota budget lasts before it refills; lower it to see the sawtooth"
              + " in a short round (default: "
              + (long) EmulatorSettings.DEFAULT_QUOTA_WINDOW_SECONDS
              + ").")
  Double quotaWindowSeconds;

  @Option(
      names = "--quota-mode",
      paramLabel = "MODE",
      description =
          "BigQuery emulator: what a spent quota does: throttle (slow appends to a trickle until the window"
              + " refills, the regional quota; default), reject (refuse them with RESOURCE_EXHAUSTED until it refills, the"
              + " short-term quota; its window defaults to "
              + (long) EmulatorSettings.DEFAULT_REJECT_WINDOW_SECONDS
              + " s) or two-tier (the short-term cell quota, --cell-quota-*, under the regional one,"
              + " --quota-*; each refuses while it refills, and the report names the tier).")
  String quotaMode;

  @Option(
      names = "--cell-quota-mb-per-second",
      paramLabel = "MB/S",
      description =
          "BigQuery emulator, --quota-mode two-tier: the short-term (cell) quota in MB/s (default:"
              + " twice --quota-mb-per-second; the service does not publish it).")
  Double cellQuotaMbPerSecond;

  @Option(
      names = "--cell-quota-window-seconds",
      paramLabel = "SECONDS",
      description =
          "BigQuery emulator, --quota-mode two-tier: how long the cell's budget lasts before it"
              + " refills, shorter than --quota-window-seconds (default: "
              + (long) EmulatorSettings.DEFAULT_REJECT_WINDOW_SECONDS
              + ").")
  Double cellQuotaWindowSeconds;

  @Option(
      names = "--max-connections",
      paramLabel = "N",
      description =
          "BigQuery emulator: open AppendRows streams allowed at once; more get RESOURCE_EXHAUSTED (default: "
              + EmulatorSettings.DEFAULT_MAX_CONNECTIONS
              + ").")
  Integer maxConnections;

  @Option(
      names = "--max-request-bytes",
      paramLabel = "BYTES",
      description =
          "BigQuery emulator: largest AppendRows request accepted (default: "
              + EmulatorSettings.DEFAULT_MAX_REQUEST_BYTES
              + ").")
  Long maxRequestBytes;

  @Option(
      names = "--tables-api-quota",
      paramLabel = "PER_SECOND",
      description =
          "BigQuery emulator: tables.get and tables.insert requests a second, each method on its own;"
              + " more are refused (403 rateLimitExceeded, as the service answers); 0: no limit"
              + " (default: "
              + (long) ApiLimits.DEFAULT_TABLES_PER_SECOND
              + ", BigQuery's per-method API quota).")
  Double tablesApiQuota;

  @Option(
      names = "--create-write-stream-threshold",
      paramLabel = "PER_SECOND",
      description =
          "BigQuery emulator: CreateWriteStream calls a second above which each call takes longer"
              + " (--create-write-stream-slowdown-ms per call above it); 0: no slowdown (default: "
              + (long) ApiLimits.DEFAULT_CREATE_WRITE_STREAM_PER_SECOND
              + ", BigQuery's guidance).")
  Double createWriteStreamThreshold;

  @Option(
      names = "--create-write-stream-slowdown-ms",
      paramLabel = "MS",
      description =
          "BigQuery emulator: how much longer each CreateWriteStream call takes per call a second"
              + " above the threshold, at most 60000 (default: "
              + (long) ApiLimits.DEFAULT_CREATE_WRITE_STREAM_SLOWDOWN_MS
              + ": 90 calls a second take 25 s each, as the guidance reports).")
  Double createWriteStreamSlowdownMs;

  @Option(
      names = "--fault",
      paramLabel = "FAULT",
      description =
          "BigQuery emulator fault, repeatable; F is a fraction (above 0, at most 1) of what each"
              + " counts, evenly spaced, and the round reports how often each fired: unavailable=F,"
              + " internal=F or overloaded=F (fail F of AppendRows requests), RPC:unavailable=F (also"
              + " internal, overloaded; F of that RPC's calls) for create-write-stream, get-write-stream,"
              + " flush-rows, finalize-write-stream or batch-commit-write-streams, discard=F (acknowledge"
              + " and never store F of the appends that reached the store), duplicate=F (store twice F of"
              + " the stored appends not discarded), corrupt=F (alter a row in F of the appends whose"
              + " content is checked), misroute=F (keep F of the appends to a table of several"
              + " destinations in the next table), drop=F (store, then end the AppendRows stream, on F of the appends"
              + " that reached the store), drain-at=S (close every connection S seconds after the first"
              + " append), drain-after=N (the same after the N-th append). An append often holds hundreds of rows or more,"
              + " so a small fraction may never fire in a short round.")
  List<String> faults = new ArrayList<>();

  /**
   * Limits given in code (a scenario's {@code limits}); null keeps BigQuery's default, as an option
   * not given.
   */
  public static EmulatorLimitOptions of(
      Double quotaMbPerSecond,
      Double quotaWindowSeconds,
      String quotaMode,
      Double cellQuotaMbPerSecond,
      Double cellQuotaWindowSeconds,
      Integer maxConnections,
      Long maxRequestBytes,
      Double tablesApiQuota,
      Double createWriteStreamThreshold,
      Double createWriteStreamSlowdownMs) {
    EmulatorLimitOptions o = new EmulatorLimitOptions();
    o.quotaMbPerSecond = quotaMbPerSecond;
    o.quotaWindowSeconds = quotaWindowSeconds;
    o.quotaMode = quotaMode;
    o.cellQuotaMbPerSecond = cellQuotaMbPerSecond;
    o.cellQuotaWindowSeconds = cellQuotaWindowSeconds;
    o.maxConnections = maxConnections;
    o.maxRequestBytes = maxRequestBytes;
    o.tablesApiQuota = tablesApiQuota;
    o.createWriteStreamThreshold = createWriteStreamThreshold;
    o.createWriteStreamSlowdownMs = createWriteStreamSlowdownMs;
    return o;
  }

  /**
   * {@code base} with these limits and faults (BigQuery's defaults for those not given); not yet
   * validated.
   */
  public EmulatorSettings applyTo(EmulatorSettings base) {
    String mode = quotaMode == null ? EmulatorSettings.THROTTLE : quotaMode;
    if (!EmulatorSettings.TWO_TIER.equals(mode)
        && (cellQuotaMbPerSecond != null || cellQuotaWindowSeconds != null)) {
      throw new IllegalArgumentException(
          "--cell-quota-mb-per-second and --cell-quota-window-seconds set the short-term quota of"
              + " --quota-mode two-tier; add --quota-mode two-tier or drop them");
    }
    if (EmulatorSettings.TWO_TIER.equals(mode)
        && cellQuotaWindowSeconds == null
        && quotaWindowSeconds != null
        && quotaWindowSeconds <= EmulatorSettings.DEFAULT_REJECT_WINDOW_SECONDS) {
      throw new IllegalArgumentException(
          "--quota-window-seconds must be longer than the cell's window ("
              + (long) EmulatorSettings.DEFAULT_REJECT_WINDOW_SECONDS
              + " s by default) with --quota-mode two-tier: the region refills slower than a cell;"
              + " raise it (BigQuery: 600) or give a shorter --cell-quota-window-seconds");
    }
    double defaultWindow =
        EmulatorSettings.REJECT.equals(mode)
            ? EmulatorSettings.DEFAULT_REJECT_WINDOW_SECONDS
            : EmulatorSettings.DEFAULT_QUOTA_WINDOW_SECONDS;
    double regional =
        quotaMbPerSecond == null ? EmulatorSettings.DEFAULT_QUOTA_MB_PER_SECOND : quotaMbPerSecond;
    return base.withLimits(
            regional,
            quotaWindowSeconds == null ? defaultWindow : quotaWindowSeconds,
            maxConnections == null ? EmulatorSettings.DEFAULT_MAX_CONNECTIONS : maxConnections,
            maxRequestBytes == null ? EmulatorSettings.DEFAULT_MAX_REQUEST_BYTES : maxRequestBytes)
        .withFaults(faults)
        .withQuotaMode(mode)
        .withCellQuota(
            new EmulatorSettings.CellQuota(
                cellQuotaMbPerSecond == null
                    ? EmulatorSettings.DEFAULT_CELL_RATE_FACTOR * regional
                    : cellQuotaMbPerSecond,
                cellQuotaWindowSeconds == null
                    ? EmulatorSettings.DEFAULT_REJECT_WINDOW_SECONDS
                    : cellQuotaWindowSeconds))
        .withApiLimits(
            new ApiLimits(
                tablesApiQuota == null ? ApiLimits.DEFAULT_TABLES_PER_SECOND : tablesApiQuota,
                createWriteStreamThreshold == null
                    ? ApiLimits.DEFAULT_CREATE_WRITE_STREAM_PER_SECOND
                    : createWriteStreamThreshold,
                createWriteStreamSlowdownMs == null
                    ? ApiLimits.DEFAULT_CREATE_WRITE_STREAM_SLOWDOWN_MS
                    : createWriteStreamSlowdownMs));
  }

  /** The options given, as flags of a {@code bigquery-emulator} child process. */
  public List<String> asFlags() {
    List<String> flags = new ArrayList<>();
    if (quotaMbPerSecond != null) {
      flags.add("--quota-mb-per-second=" + quotaMbPerSecond);
    }
    if (quotaWindowSeconds != null) {
      flags.add("--quota-window-seconds=" + quotaWindowSeconds);
    }
    if (quotaMode != null) {
      flags.add("--quota-mode=" + quotaMode);
    }
    if (cellQuotaMbPerSecond != null) {
      flags.add("--cell-quota-mb-per-second=" + cellQuotaMbPerSecond);
    }
    if (cellQuotaWindowSeconds != null) {
      flags.add("--cell-quota-window-seconds=" + cellQuotaWindowSeconds);
    }
    if (maxConnections != null) {
      flags.add("--max-connections=" + maxConnections);
    }
    if (maxRequestBytes != null) {
      flags.add("--max-request-bytes=" + maxRequestBytes);
    }
    if (tablesApiQuota != null) {
      flags.add("--tables-api-quota=" + tablesApiQuota);
    }
    if (createWriteStreamThreshold != null) {
      flags.add("--create-write-stream-threshold=" + createWriteStreamThreshold);
    }
    if (createWriteStreamSlowdownMs != null) {
      flags.add("--create-write-stream-slowdown-ms=" + createWriteStreamSlowdownMs);
    }
    faults.forEach(f -> flags.add("--fault=" + f));
    return flags;
  }
}
