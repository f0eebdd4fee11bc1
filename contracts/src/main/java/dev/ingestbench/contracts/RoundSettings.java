package dev.ingestbench.contracts;

import java.util.List;
import java.util.Map;

/**
 * {@code round.json}: what a round was asked to do, normalised, and the machine it ran on.
 *
 * @param jobs consumer jobs, each reading every message on its own subscription (null in files
 *     written before multi-job rounds: one)
 * @param sink {@code emulator} (the shared BigQuery emulator process) or {@code in-process}
 * @param bigQueryEmulatorArgs the flags the BigQuery emulator ran with (limits, faults)
 */
public record RoundSettings(
    long messages,
    long backlogMessages,
    long liveMessages,
    double liveRate,
    int messageSizeBytes,
    String writeMethod,
    String rowFormat,
    String rowEncoding,
    int destinationTables,
    boolean connectionPool,
    String runner,
    int pullBatchSize,
    long seed,
    String heap,
    List<String> consumerArgs,
    Map<String, Object> machine,
    Integer jobs,
    String sink,
    List<String> bigQueryEmulatorArgs) {

  /** How many jobs read every message: 1 for files that do not say. */
  public int jobCount() {
    return jobs == null ? 1 : jobs;
  }
}
