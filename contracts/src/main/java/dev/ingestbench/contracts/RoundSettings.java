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
 * @param source {@code pubsub} or {@code kafka} (null in files written before Kafka rounds: pubsub)
 * @param messageFormat {@code json} or {@code avro} (null before Avro: json)
 * @param partitions the Kafka topic's partitions; null for Pub/Sub
 * @param consumerGroups {@code separate} or {@code shared}: Kafka rounds of several jobs only
 * @param killConsumerAt {@code --kill-consumer-at}: seconds before every consumer was killed once
 * @param crashEverySeconds {@code --crash-every}: seconds into each life a consumer was killed
 *     again
 * @param flinkCluster where the jobs ran with {@code --runner flink-cluster} (the cluster, its
 *     TaskManagers and slots, each job's parallelism); null on embedded Flink
 * @param fed {@code --feed}: the backlog was fed in tranches as the jobs read it (null in files
 *     written before it: published before the jobs started)
 * @param machineCalibration how fast this machine was as the round began (null in files written
 *     before it)
 * @param savepointAt {@code --savepoint-at}: seconds before every consumer was stopped with a
 *     savepoint and restored from it; null when none was
 * @param tableSkew {@code --table-skew}: how rows spread over the destination tables ({@code
 *     uniform}, {@code zipf:S}); null in files written before it (uniform)
 * @param createTables {@code --create-tables}: {@code if-needed} or {@code ahead}; null in files
 *     written before it (if-needed)
 * @param command the round as {@code ingestbench round}'s flags, every setting as it ran with the
 *     defaults resolved (secrets redacted): the command that runs it again; null in files written
 *     before it
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
    List<String> bigQueryEmulatorArgs,
    String source,
    String messageFormat,
    Integer partitions,
    String consumerGroups,
    String runId,
    Long killConsumerAt,
    Long crashEverySeconds,
    String flinkCluster,
    Boolean fed,
    MachineCalibration machineCalibration,
    Long savepointAt,
    String tableSkew,
    String createTables,
    List<String> command) {

  public boolean kafka() {
    return "kafka".equals(source);
  }

  /** How many jobs read every message: 1 for files that do not say. */
  public int jobCount() {
    return jobs == null ? 1 : jobs;
  }
}
