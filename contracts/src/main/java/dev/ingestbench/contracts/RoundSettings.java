package dev.ingestbench.contracts;

import java.util.List;
import java.util.Map;

/** {@code round.json}: what a round was asked to do, normalised, and the machine it ran on. */
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
    Map<String, Object> machine) {}
