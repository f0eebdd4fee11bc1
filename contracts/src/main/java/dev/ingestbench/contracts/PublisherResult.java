package dev.ingestbench.contracts;

/**
 * {@code publisher_*.json}: what one publisher run handed to Pub/Sub and what Pub/Sub acknowledged.
 */
public record PublisherResult(
    String topic,
    long requested,
    long published,
    long publishFailures,
    long bytesPublished,
    int messageSizeBytes,
    double ratePerSecondTarget,
    String startedAt,
    double seconds,
    double messagesPerSecond,
    int shards,
    String runId) {}
