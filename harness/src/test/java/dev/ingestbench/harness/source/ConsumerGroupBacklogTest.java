package dev.ingestbench.harness.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.events.MessageAttributes;
import dev.ingestbench.kafka.LocalKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Against a real local Kafka broker: what a group has not read, from its committed offsets to the
 * end.
 */
@Tag("e2e")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ConsumerGroupBacklogTest {
  private static final String TOPIC = "rides";

  @Test
  void countsTheRecordsPastTheGroupsCommittedOffsetsAndLeavesTheOffsetsAlone(@TempDir Path dir)
      throws Exception {
    try (LocalKafka kafka =
        LocalKafka.start(dir.resolve("data"), dir.resolve("kafka.log"), 2, "512m")) {
      kafka.createTopic(TOPIC, 2);
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
      p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
      try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
        for (int i = 0; i < 100; i++) {
          ProducerRecord<byte[], byte[]> r =
              new ProducerRecord<>(TOPIC, i % 2, null, new byte[] {1});
          r.headers()
              .add(
                  MessageAttributes.EVENT_INDEX,
                  Integer.toString(i).getBytes(StandardCharsets.UTF_8));
          producer.send(r).get();
        }
      }
      Properties a = new Properties();
      a.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      try (Admin admin = Admin.create(a)) {
        // Group "a" read 30 records of partition 0 (indexes 0, 2, ..., 58) and none of partition 1.
        admin
            .alterConsumerGroupOffsets(
                "a", Map.of(new TopicPartition(TOPIC, 0), new OffsetAndMetadata(30)))
            .all()
            .get(60, TimeUnit.SECONDS);
      }

      BitSet left = ConsumerGroupBacklog.read(kafka.bootstrapServers(), TOPIC, "a");

      assertEquals(70, left.cardinality(), left.toString());
      assertTrue(
          !left.get(0) && !left.get(58) && left.get(60) && left.get(1) && left.get(99),
          left.toString());
      assertEquals(
          left,
          ConsumerGroupBacklog.read(kafka.bootstrapServers(), TOPIC, "a"),
          "reading commits nothing for the group");
      assertEquals(
          100,
          ConsumerGroupBacklog.read(kafka.bootstrapServers(), TOPIC, "never-ran").cardinality(),
          "a group that committed nothing has everything left");
    }
  }
}
