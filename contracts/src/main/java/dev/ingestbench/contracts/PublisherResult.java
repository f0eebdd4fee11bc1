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
    String runId) {

  /**
   * One publisher's result over [{@code started}, {@code ended}): its bytes and rate from what the
   * source acknowledged.
   *
   * @param requested what it was to publish (handed to the client, or a backlog's count)
   * @param failures what it handed over and the source did not acknowledge
   */
  public static PublisherResult of(
      String topic,
      long requested,
      long published,
      long failures,
      int messageSize,
      double rateTarget,
      java.time.Instant started,
      java.time.Instant ended,
      String runId) {
    double seconds = java.time.Duration.between(started, ended).toMillis() / 1000.0;
    return new PublisherResult(
        topic,
        requested,
        published,
        failures,
        published * messageSize,
        messageSize,
        rateTarget,
        started.toString(),
        seconds,
        seconds > 0 ? published / seconds : 0,
        1,
        runId);
  }
}
