package dev.ingestbench.consumer.source;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessageWithAttributesAndMessageIdCoder;
import org.apache.beam.sdk.io.kafka.KafkaIO;
import org.apache.beam.sdk.io.kafka.KafkaRecord;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.values.PBegin;
import org.apache.beam.sdk.values.PCollection;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.header.Header;
import org.joda.time.Duration;

/**
 * Reads every partition of a Kafka topic with Beam's KafkaIO and hands the rest of the pipeline the
 * same messages a Pub/Sub read does: the record's value as payload, its headers as attributes
 * ({@code event_index}, {@code published_at_ms}), {@code PARTITION-OFFSET} as message id and the
 * record's create time (the producer's clock) as the element timestamp, so rows, dead letters and
 * verification work as for Pub/Sub.
 *
 * <p>Offsets are part of the runner's checkpoint, so a restored job re-reads nothing it has
 * committed downstream; they are also committed to {@code --consumerGroup} once a checkpoint is
 * finalised, which is where a job without a checkpoint starts. KafkaIO assigns partitions to its
 * readers itself ({@code consumer.assign}): jobs sharing a group do not split the partitions, each
 * reads them all.
 */
public class ReadFromKafka extends PTransform<PBegin, PCollection<PubsubMessage>> {
  /**
   * How far out of order (by create time) records of one partition may be; the watermark trails by
   * it.
   */
  private static final Duration MAX_CREATE_TIME_DELAY = Duration.standardSeconds(30);

  private final KafkaSource source;

  public ReadFromKafka(KafkaSource source) {
    this.source = source;
  }

  @Override
  public PCollection<PubsubMessage> expand(PBegin input) {
    Map<String, Object> config = new HashMap<>(source.consumerConfig());
    config.put(ConsumerConfig.GROUP_ID_CONFIG, source.consumerGroup());
    config.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    KafkaIO.Read<byte[], byte[]> read =
        KafkaIO.readBytes()
            .withBootstrapServers(source.bootstrapServers())
            .withTopic(source.topic())
            .withConsumerConfigUpdates(config)
            .withCreateTime(MAX_CREATE_TIME_DELAY)
            .commitOffsetsInFinalize();
    if (source.gcpAuth()) {
      read = read.withGCPApplicationDefaultCredentials();
    }
    return input
        .apply("Read from Kafka", read)
        .apply("Records to messages", ParDo.of(new RecordToMessageFn()))
        .setCoder(PubsubMessageWithAttributesAndMessageIdCoder.of());
  }

  /** One Kafka record as the message the rest of the consumer reads. */
  static class RecordToMessageFn extends DoFn<KafkaRecord<byte[], byte[]>, PubsubMessage> {
    @ProcessElement
    public void processElement(
        @Element KafkaRecord<byte[], byte[]> record, OutputReceiver<PubsubMessage> out) {
      out.output(toMessage(record));
    }
  }

  static PubsubMessage toMessage(KafkaRecord<byte[], byte[]> record) {
    Map<String, String> attributes = new HashMap<>(4);
    if (record.getHeaders() != null) {
      for (Header header : record.getHeaders()) {
        if (header.value() != null) {
          attributes.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
        }
      }
    }
    byte[] value = record.getKV().getValue();
    return new PubsubMessage(
        value == null ? new byte[0] : value,
        attributes,
        record.getPartition() + "-" + record.getOffset());
  }
}
