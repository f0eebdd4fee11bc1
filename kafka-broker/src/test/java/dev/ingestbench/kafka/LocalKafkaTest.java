package dev.ingestbench.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.LoopbackPorts;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Tag("e2e")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class LocalKafkaTest {
  @TempDir Path dir;

  @Test
  void aRealBrokerTakesAndGivesBackRecordsOnEveryPartitionThenLeavesNothingBehind()
      throws Exception {
    Path data = dir.resolve("kafka-data");
    LocalKafka kafka;
    // The first port it is given is taken by the time the broker binds it (as when another
    // process takes a free port first): the broker starts again on others.
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      AtomicInteger asked = new AtomicInteger();
      LoopbackPorts.Chooser ports =
          () -> asked.getAndIncrement() == 0 ? taken.getLocalPort() : LoopbackPorts.free();
      kafka = LocalKafka.start(data, dir.resolve("kafka.log"), 32, "512m", ports);
      assertEquals(4, asked.get(), "started again, on two other ports");
      assertFalse(
          kafka.bootstrapServers().endsWith(":" + taken.getLocalPort()),
          "started on another port: " + kafka.bootstrapServers());
    }
    ProcessHandle broker = ProcessHandle.of(kafka.pid()).orElseThrow();
    try (kafka) {
      assertTakesTheChildJvmOptions(kafka.pid());
      kafka.createTopic("rides", 8);
      kafka.createTopic("rides", 8); // again: kept as it is
      Properties producerConfig = new Properties();
      producerConfig.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      try (KafkaProducer<byte[], byte[]> producer =
          new KafkaProducer<>(
              producerConfig, new ByteArraySerializer(), new ByteArraySerializer())) {
        for (int i = 0; i < 200; i++) {
          producer.send(new ProducerRecord<>("rides", i % 8, null, ("m" + i).getBytes()));
        }
        producer.flush();
      }
      Properties consumerConfig = new Properties();
      consumerConfig.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, "test");
      consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      Set<String> values = new HashSet<>();
      Set<Integer> partitions = new HashSet<>();
      try (KafkaConsumer<byte[], byte[]> consumer =
          new KafkaConsumer<>(
              consumerConfig, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
        consumer.subscribe(List.of("rides"));
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (values.size() < 200 && System.nanoTime() < deadline) {
          for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
            values.add(new String(record.value()));
            partitions.add(record.partition());
          }
        }
      }
      assertEquals(200, values.size());
      assertEquals(8, partitions.size());
      IllegalStateOrIo mismatch = () -> kafka.createTopic("rides", 4);
      assertThrows(IOException.class, mismatch::run);
    }
    assertFalse(broker.isAlive(), "the broker process is stopped");
    assertFalse(Files.exists(data), "its data is removed");
  }

  @Test
  void aDirectoryHoldingSomethingElseIsRefused() throws Exception {
    Path data = Files.createDirectories(dir.resolve("busy"));
    Files.writeString(data.resolve("keep.txt"), "not the broker's");
    var e =
        assertThrows(
            IOException.class, () -> LocalKafka.start(data, dir.resolve("k.log"), 1, "256m"));
    assertTrue(e.getMessage().contains("not empty"), e.getMessage());
    assertTrue(Files.exists(data.resolve("keep.txt")));
  }

  @FunctionalInterface
  private interface IllegalStateOrIo {
    void run() throws Exception;
  }

  /**
   * The build gives the tests' child JVMs {@code INGESTBENCH_CHILD_JAVA_OPTS} (the client compiler
   * alone): the broker takes them, as every JVM a round starts does. From /proc: ProcessHandle.Info
   * gives no command line as long as the broker's classpath.
   */
  private static void assertTakesTheChildJvmOptions(long pid) throws IOException {
    String options = System.getenv("INGESTBENCH_CHILD_JAVA_OPTS");
    assertTrue(options != null && !options.isBlank(), "the build sets INGESTBENCH_CHILD_JAVA_OPTS");
    Path cmdline = Path.of("/proc", Long.toString(pid), "cmdline");
    Assumptions.assumeTrue(Files.exists(cmdline), "no /proc here");
    List<String> args = List.of(Files.readString(cmdline).split("\0"));
    for (String option : options.trim().split("\\s+")) {
      assertTrue(
          args.contains(option),
          option + " in " + args.stream().filter(a -> a.length() < 200).toList());
    }
  }
}
