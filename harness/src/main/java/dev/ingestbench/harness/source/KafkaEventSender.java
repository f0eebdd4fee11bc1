package dev.ingestbench.harness.source;

import dev.ingestbench.publisher.KafkaEventRecords;
import dev.ingestbench.pubsub.PublishOutcomes;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Sends events to a Kafka topic with a producer that waits for every replica ({@code acks=all}):
 * the record's value is the event, its headers the event index and the time it was sent, as the
 * project's Kafka publishers write them; no key, so the producer spreads records over partitions.
 */
public final class KafkaEventSender implements EventSender {
  private static final long ADMIN_TIMEOUT_SECONDS = 60;

  private final String topic;
  private final KafkaProducer<byte[], byte[]> producer;

  public KafkaEventSender(String bootstrapServers, String topic) {
    this.topic = topic;
    this.producer = producer(bootstrapServers);
  }

  /** The project's event producer: every replica acknowledges, batches of up to 1 MiB. */
  static KafkaProducer<byte[], byte[]> producer(String bootstrapServers) {
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.LINGER_MS_CONFIG,
            5,
            ProducerConfig.BATCH_SIZE_CONFIG,
            1_048_576,
            ProducerConfig.BUFFER_MEMORY_CONFIG,
            134_217_728L);
    return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
  }

  /** Creates {@code topic} with {@code partitions} partitions unless it exists. */
  public static void createTopic(String bootstrapServers, String topic, int partitions)
      throws IOException, InterruptedException {
    Properties admin = new Properties();
    admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    try (Admin client = Admin.create(admin)) {
      client
          .createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
          .all()
          .get(ADMIN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new IOException(
            "could not create topic " + topic + " on " + bootstrapServers + ": " + e.getMessage(),
            e);
      }
    } catch (TimeoutException e) {
      throw new IOException("the Kafka broker at " + bootstrapServers + " did not answer", e);
    }
  }

  @Override
  public void send(long index, byte[] payload, long sentAtMillis, PublishOutcomes outcome) {
    producer.send(
        KafkaEventRecords.of(topic, index, payload, sentAtMillis),
        (meta, e) -> {
          if (e == null) {
            outcome.onSuccess(null);
          } else {
            outcome.onFailure(e);
          }
        });
  }

  @Override
  public void flush() {
    producer.flush();
  }

  @Override
  public void close() {
    producer.close(java.time.Duration.ofSeconds(30));
  }
}
