package dev.ingestbench.harness.source;

import dev.ingestbench.events.MessageAttributes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads what a Kafka consumer group has not consumed of a topic after its job stopped: every record
 * from the group's committed offset (the start of a partition it never committed) to the end, read
 * by a consumer outside the group, so the group's offsets stay as they were.
 */
public final class ConsumerGroupBacklog {
  private static final Duration POLL = Duration.ofMillis(500);
  private static final long TIMEOUT_SECONDS = 60;

  private ConsumerGroupBacklog() {}

  /**
   * The event indexes (record header) of the records of {@code topic} that {@code group} has not
   * read.
   */
  public static BitSet read(String bootstrapServers, String topic, String group) throws Exception {
    Map<TopicPartition, OffsetAndMetadata> committed;
    Properties admin = new Properties();
    admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    try (Admin client = Admin.create(admin)) {
      committed =
          client
              .listConsumerGroupOffsets(group)
              .partitionsToOffsetAndMetadata()
              .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IOException(
          "could not read consumer group "
              + group
              + "'s offsets from "
              + bootstrapServers
              + ": "
              + e.getMessage(),
          e);
    }
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    props.put(
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    BitSet indexes = new BitSet();
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
      List<TopicPartition> partitions = new ArrayList<>();
      consumer
          .partitionsFor(topic, Duration.ofSeconds(TIMEOUT_SECONDS))
          .forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
      consumer.assign(partitions);
      Map<TopicPartition, Long> end =
          consumer.endOffsets(partitions, Duration.ofSeconds(TIMEOUT_SECONDS));
      for (TopicPartition tp : partitions) {
        OffsetAndMetadata at = committed.get(tp);
        if (at == null) {
          consumer.seekToBeginning(List.of(tp));
        } else {
          consumer.seek(tp, at.offset());
        }
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
      while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        if (System.nanoTime() > deadline) {
          throw new IOException(
              "could not read topic " + topic + " to its end within " + TIMEOUT_SECONDS + " s");
        }
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
          if (r.offset() >= end.get(new TopicPartition(r.topic(), r.partition()))) {
            continue; // published after the count began
          }
          Header h = r.headers().lastHeader(MessageAttributes.EVENT_INDEX);
          String index = h == null ? "" : new String(h.value(), StandardCharsets.UTF_8);
          if (index.matches("\\d{1,10}") && Long.parseLong(index) <= Integer.MAX_VALUE) {
            indexes.set(Integer.parseInt(index));
          }
        }
      }
    }
    return indexes;
  }
}
