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
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Creates the publisher's Kafka topic before publishing ({@code --kafkaPartitions=N}), as it
 * creates Pub/Sub subscriptions.
 */
final class KafkaTopics {
  private static final long WAIT_SECONDS = 60;

  private KafkaTopics() {}

  static void ensure(KafkaTarget target) throws IOException, InterruptedException {
    Map<String, Object> config = new HashMap<>(target.producerConfig());
    config
        .keySet()
        .removeIf(
            key -> !AdminClientConfig.configNames().contains(key)); // SASL and TLS settings stay
    config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, target.bootstrapServers());
    try (Admin admin = Admin.create(config)) {
      admin
          .createTopics(List.of(new NewTopic(target.topic(), target.partitions(), (short) -1)))
          .all()
          .get(WAIT_SECONDS, TimeUnit.SECONDS);
      awaitLeaders(admin, target);
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new IOException(
            "creating Kafka topic " + target.topic() + " failed: " + e.getCause().getMessage(),
            e.getCause());
      }
    } catch (TimeoutException e) {
      throw new IOException(
          "Kafka at " + target.bootstrapServers() + " did not answer within " + WAIT_SECONDS + " s",
          e);
    }
  }

  /**
   * Waits until the brokers report a leader for every partition of the new topic. A created topic
   * is committed by the controller before the brokers have applied it; records sent in between are
   * answered "unknown partition" or "not the leader" and wait in the producer's retries.
   */
  private static void awaitLeaders(Admin admin, KafkaTarget target)
      throws IOException, InterruptedException, TimeoutException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    String missing = "no description";
    while (System.nanoTime() < deadline) {
      try {
        TopicDescription topic =
            admin
                .describeTopics(List.of(target.topic()))
                .allTopicNames()
                .get(WAIT_SECONDS, TimeUnit.SECONDS)
                .get(target.topic());
        long leaderless =
            topic.partitions().stream()
                .filter(p -> p.leader() == null || p.leader().isEmpty())
                .count();
        if (topic.partitions().size() >= target.partitions() && leaderless == 0) {
          return;
        }
        missing =
            topic.partitions().size()
                + " of "
                + target.partitions()
                + " partitions known, "
                + leaderless
                + " without a leader";
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
          throw new IOException(
              "describing Kafka topic " + target.topic() + " failed: " + e.getCause().getMessage(),
              e.getCause());
        }
        missing = "the brokers do not know the topic yet";
      }
      Thread.sleep(100);
    }
    throw new IOException(
        "Kafka topic "
            + target.topic()
            + " was created but is not ready after "
            + WAIT_SECONDS
            + " s ("
            + missing
            + "); check the brokers' logs");
  }
}
