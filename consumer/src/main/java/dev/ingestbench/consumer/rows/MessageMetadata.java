package dev.ingestbench.consumer.rows;

import java.util.Map;

/**
 * What a row records about the message besides its payload.
 *
 * @param publishMicros publish time (the Pub/Sub publish time, or generation time for synthetic)
 * @param processingMicros when the consumer turned the message into a row
 */
public record MessageMetadata(
    String subscriptionName,
    String messageId,
    Map<String, String> attributes,
    long publishMicros,
    long processingMicros) {}
