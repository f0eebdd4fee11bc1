package dev.ingestbench.cli;

import dev.ingestbench.harness.spec.ChildFlag;
import dev.ingestbench.harness.spec.JvmHeap;
import dev.ingestbench.kafka.LocalKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Starts a local Kafka broker and keeps it running until interrupted. */
@Command(
    name = "kafka",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Start a local Apache Kafka broker (KRaft mode, one node, in its own JVM) on a free loopback port,"
          + " create the topic, and print its bootstrap address for --bootstrapServers. Ctrl-C stops it"
          + " and removes its data.",
      "",
      "  ingestbench kafka --partitions 32",
      ""
    })
final class KafkaCommand implements Callable<Integer> {
  @Option(
      names = "--topic",
      defaultValue = "taxi-rides",
      description = "Topic to create (default: ${DEFAULT-VALUE}).")
  String topic;

  @Option(
      names = "--partitions",
      paramLabel = "N",
      defaultValue = "32",
      description =
          "Partitions of the topic, and of topics created later without a count (default: ${DEFAULT-VALUE}, as in the reference rounds).")
  int partitions;

  @Option(
      names = JvmHeap.FLAG,
      defaultValue = "1g",
      description = "Heap cap of the broker JVM (default: ${DEFAULT-VALUE}).")
  String heap;

  @Override
  public Integer call() throws Exception {
    if (partitions < 1) {
      throw new IllegalArgumentException("--partitions " + partitions + " must be 1 or more");
    }
    if (!topic.matches("[A-Za-z0-9._-]{1,249}")) {
      throw new IllegalArgumentException(
          "--topic " + topic + " is not a Kafka topic name (letters, digits, '.', '_', '-')");
    }
    JvmHeap.require(heap);
    Path dir = Files.createTempDirectory("ingestbench-kafka-");
    try (LocalKafka kafka =
        LocalKafka.start(dir.resolve("data"), dir.resolve("kafka.log"), partitions, heap)) {
      kafka.createTopic(topic, partitions);
      System.out.println(
          "Kafka "
              + LocalKafka.version()
              + " (KRaft) on "
              + kafka.bootstrapServers()
              + ", topic "
              + topic
              + " with "
              + partitions
              + " partitions; log: "
              + kafka.log());
      System.out.println(
          ChildFlag.BOOTSTRAP_SERVERS.is(kafka.bootstrapServers())
              + " "
              + ChildFlag.KAFKA_TOPIC.is(topic));
      System.out.flush();
      int exit = kafka.waitFor();
      if (kafka.stopRequested()) {
        return 0; // Ctrl-C: stopped as asked
      }
      System.out.println(
          "The broker exited (code "
              + exit
              + "); its last lines:"
              + System.lineSeparator()
              + kafka.lastLines());
      return 3;
    } finally {
      Files.deleteIfExists(dir.resolve("kafka.log"));
      Files.deleteIfExists(dir);
    }
  }
}
