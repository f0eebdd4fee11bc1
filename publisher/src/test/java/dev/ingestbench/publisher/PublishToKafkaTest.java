package dev.ingestbench.publisher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ingestbench.events.MessageFormat;
import dev.ingestbench.events.TaxiRideAvro;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.kafka.LocalKafka;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The publisher's Kafka sink against a real local broker. */
@Tag("e2e")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PublishToKafkaTest {
  @TempDir static Path dir; // the broker's data and log, removed after the class
  private static LocalKafka kafka;

  @BeforeAll
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  static void start() throws Exception {
    kafka = LocalKafka.start(dir.resolve("data"), dir.resolve("kafka.log"), 4, "512m");
  }

  @AfterAll
  static void stop() {
    kafka.close();
  }

  private static PublisherOptions options(String... extra) {
    PipelineOptionsFactory.register(PublisherOptions.class);
    String[] base = {
      "--sink=kafka", "--bootstrapServers=" + kafka.bootstrapServers(), "--project=ingestbench-test"
    };
    String[] args = new String[base.length + extra.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    return PipelineOptionsFactory.fromArgs(args).as(PublisherOptions.class);
  }

  @Test
  void everyAvroEventLandsOnceWithItsIndexHeaderSpreadOverPartitions(@TempDir Path out)
      throws Exception {
    Path result = out.resolve("result.json");
    PublisherPipeline.run(
        options(
            "--kafkaTopic=avro-rides",
            "--kafkaPartitions=6",
            "--messageFormat=avro",
            "--numMessages=5000",
            "--firstEventIndex=100",
            "--compressionType=lz4",
            "--resultFile=" + result));
    JsonNode json = new ObjectMapper().readTree(result.toFile());
    assertEquals(5000, json.get("published").asLong());
    assertEquals("kafka:avro-rides", json.get("topic").asText());

    TaxiRideGenerator expected = new TaxiRideGenerator(1, 500, MessageFormat.AVRO);
    Set<Long> indexes = new HashSet<>();
    Set<Integer> partitions = new HashSet<>();
    int records = 0;
    for (ConsumerRecord<byte[], byte[]> record : readAll("avro-rides", 5000)) {
      long index =
          Long.parseLong(
              new String(
                  record.headers().lastHeader("event_index").value(), StandardCharsets.UTF_8));
      indexes.add(index);
      partitions.add(record.partition());
      records++;
      assertEquals(
          expected.event(index).withoutPadding(),
          TaxiRideAvro.parse(record.value()).withoutPadding());
      assertTrue(record.timestamp() > 0);
    }
    assertEquals(5000, records, "no duplicates");
    assertEquals(5000, indexes.size());
    assertEquals(100L, indexes.stream().mapToLong(Long::longValue).min().orElseThrow());
    // Keyless records go to one partition per batch (Kafka's sticky partitioner), chosen at random,
    // so
    // ~27 batches of 5,000 lz4 records miss one of 6 partitions a few times in a hundred: assert a
    // spread.
    assertTrue(partitions.size() > 1, "spread over partitions: " + partitions);
  }

  @Test
  void aMissingTopicWithoutPartitionsToCreateItFailsTheRun() {
    Exception e =
        assertThrows(
            Exception.class,
            () ->
                PublisherPipeline.run(
                    options(
                        "--kafkaTopic=no-such-topic",
                        "--numMessages=10",
                        "--publisherShards=1",
                        "--kafkaProducerConfig=max.block.ms=3000")));
    assertTrue(String.valueOf(e.getMessage()).contains("no-such-topic"), e.toString());
  }

  @Test
  void badKafkaFlagsNameTheFlagAndTheFix() {
    var acks =
        assertThrows(
            IllegalArgumentException.class,
            () -> PublishSettings.from(options("--kafkaTopic=t", "--acks=2")));
    assertTrue(acks.getMessage().contains("--acks=2"), acks.getMessage());
    var compression =
        assertThrows(
            IllegalArgumentException.class,
            () -> PublishSettings.from(options("--kafkaTopic=t", "--compressionType=brotli")));
    assertTrue(compression.getMessage().contains("zstd"), compression.getMessage());
    var owned =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                PublishSettings.from(
                    options("--kafkaTopic=t", "--kafkaProducerConfig=linger.ms=50")));
    assertTrue(owned.getMessage().contains("--lingerMs"), owned.getMessage());
    var pubsubTopic =
        assertThrows(
            IllegalArgumentException.class,
            () -> PublishSettings.from(options("--kafkaTopic=t", "--topic=x")));
    assertTrue(pubsubTopic.getMessage().contains("--kafkaTopic"), pubsubTopic.getMessage());
  }

  private static List<ConsumerRecord<byte[], byte[]>> readAll(String topic, int atLeast) {
    Properties config = new Properties();
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    config.put(ConsumerConfig.GROUP_ID_CONFIG, "check-" + topic);
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      long quietSince = 0;
      while (System.nanoTime() < deadline) {
        int got = 0;
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
          records.add(r);
          got++;
        }
        // Keep reading a little past the expected count, so duplicates would be seen.
        if (records.size() >= atLeast && got == 0 && ++quietSince >= 3) {
          break;
        }
      }
    }
    return records;
  }
}
