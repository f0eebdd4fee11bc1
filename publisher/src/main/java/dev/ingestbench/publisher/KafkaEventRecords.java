package dev.ingestbench.publisher;

import dev.ingestbench.events.MessageAttributes;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * An event as every Kafka publisher of the project writes it: the event as the value, no key (the
 * producer spreads records over partitions), the event index and the send time as headers.
 */
public final class KafkaEventRecords {
  private KafkaEventRecords() {}

  /** Event {@code index} as a record of {@code topic}, sent at {@code sentAtMillis}. */
  public static ProducerRecord<byte[], byte[]> of(
      String topic, long index, byte[] payload, long sentAtMillis) {
    List<Header> headers =
        List.of(
            new RecordHeader(
                MessageAttributes.EVENT_INDEX,
                Long.toString(index).getBytes(StandardCharsets.UTF_8)),
            new RecordHeader(
                MessageAttributes.PUBLISHED_AT_MS,
                Long.toString(sentAtMillis).getBytes(StandardCharsets.UTF_8)));
    return new ProducerRecord<>(topic, null, sentAtMillis, null, payload, headers);
  }
}
