package dev.ingestbench.publisher;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/** Creates the publisher's Kafka topic before publishing ({@code --kafkaPartitions=N}), as it creates Pub/Sub subscriptions. */
final class KafkaTopics {
  private KafkaTopics() {}

  static void ensure(KafkaTarget target) throws IOException, InterruptedException {
    Map<String, Object> config = new HashMap<>(target.producerConfig());
    config.keySet().removeIf(key -> !AdminClientConfig.configNames().contains(key)); // SASL and TLS settings stay
    config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, target.bootstrapServers());
    try (Admin admin = Admin.create(config)) {
      admin.createTopics(List.of(new NewTopic(target.topic(), target.partitions(), (short) -1)))
          .all().get(60, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new IOException("creating Kafka topic " + target.topic() + " failed: " + e.getCause().getMessage(), e.getCause());
      }
    } catch (TimeoutException e) {
      throw new IOException("Kafka at " + target.bootstrapServers() + " did not answer within 60 s", e);
    }
  }
}
