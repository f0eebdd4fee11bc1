package dev.ingestbench.consumer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.consumer.ConsumerConfig;
import dev.ingestbench.consumer.ConsumerOptions;
import dev.ingestbench.consumer.local.LocalConsumer;
import dev.ingestbench.consumer.local.LocalRun;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.events.MessageFormat;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.kafka.LocalKafka;
import dev.ingestbench.publisher.PublisherOptions;
import dev.ingestbench.publisher.PublisherPipeline;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The consumer reading Kafka end to end on real components: a KRaft broker in its own JVM, the
 * publisher's Kafka producer, Beam's KafkaIO and Storage Write API path on embedded Flink, and the
 * local BigQuery's verification.
 */
@Tag("e2e")
@Timeout(value = 400, unit = TimeUnit.SECONDS)
class KafkaRoundTripTest {
  // Table names unique in the test JVM: Beam caches Storage Write append clients per stream name in
  // static state, so a table another test class wrote through its (since stopped) emulator would
  // get that emulator's dead client.
  private static final long EVENTS = 10_000;
  private static final int PARTITIONS = 8;
  @TempDir static Path dir; // the broker's data and log, removed after the class
  private static LocalKafka kafka;

  @BeforeAll
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  static void startBroker() throws Exception {
    kafka = LocalKafka.start(dir.resolve("data"), dir.resolve("kafka.log"), PARTITIONS, "512m");
  }

  @AfterAll
  static void stopBroker() {
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void exactlyOnceWritesEveryAvroRecordOnceOverFourTablesAndDeadLettersTheMalformed(
      @TempDir Path out) throws Exception {
    publish("eo-rides", EVENTS, "avro");
    byte[] good = new TaxiRideGenerator(1, 1, MessageFormat.AVRO).message(3);
    publishRaw("eo-rides", Arrays.copyOf(good, good.length - 10), "900000001"); // truncated
    publishRaw(
        "eo-rides",
        "{\"ride_id\":\"json, not avro\"}".getBytes(StandardCharsets.UTF_8),
        "900000002");

    LocalRun.Result result =
        consume(
            out,
            "eo-rides",
            "eo-group",
            "kafka_eo.rides",
            EVENTS + 2,
            "--writeMethod=exactly-once",
            "--messageFormat=avro",
            "--rowFormat=typed",
            "--rowEncoding=proto",
            "--destinationTables=4");

    EmulatorStatus.Job v = result.verification();
    assertTrue(result.complete(), result.stopReason());
    assertEquals(EVENTS, v.distinctMessageIds());
    assertEquals(EVENTS, v.rowsWritten(), "exactly-once writes each record once");
    assertEquals(0, v.duplicates());
    assertEquals(2, v.deadLettered());
    assertTrue(
        v.deadLetterErrors().stream().allMatch(e -> e.contains("not an Avro taxi-ride record")),
        v.deadLetterErrors().toString());
    assertTrue(
        v.deadLetterErrors().stream().anyMatch(e -> e.contains("ends inside")),
        v.deadLetterErrors().toString());
    Map<String, Long> perTable = timelineRows(out.resolve(RunFiles.TIMELINE));
    for (int k = 0; k < 4; k++) {
      assertTrue(
          perTable.getOrDefault("rides_" + k, 0L) >= EVENTS / 5,
          "table rides_" + k + ": " + perTable);
    }
    assertTrue(v.latency() != null, "latency is measured from the record's timestamp");
  }

  @Test
  void atLeastOnceWithPoolingLosesNothingFromJsonRecords(@TempDir Path out) throws Exception {
    publish("alo-rides", EVENTS, "json");
    LocalRun.Result result =
        consume(
            out,
            "alo-rides",
            "alo-group",
            "kafka_alo.rides",
            EVENTS,
            "--writeMethod=at-least-once",
            "--useStorageApiConnectionPool=true",
            "--rowFormat=json-column");
    EmulatorStatus.Job v = result.verification();
    assertTrue(result.complete(), result.stopReason());
    assertEquals(EVENTS, v.distinctMessageIds(), "no record lost");
    assertEquals(0, v.deadLettered());
  }

  @Test
  void aJobInTheGroupOfAFinishedJobStartsWhereThatOneCommittedWhileItsOwnGroupReadsEverything(
      @TempDir Path out) throws Exception {
    // KafkaIO assigns every partition to every job itself: a consumer group does not split
    // partitions between jobs. What a group shares is committed offsets: a job without a
    // checkpoint starts from its group's, so a second job in the first one's group skips what the
    // first one finished.
    long first = 5_000;
    publish("group-rides", first, "avro");
    LocalRun.Result a =
        consume(
            out.resolve("a"),
            "group-rides",
            "shared",
            "kafka_groups.rides_a",
            first,
            "--writeMethod=at-least-once",
            "--messageFormat=avro",
            "--rowFormat=typed");
    assertTrue(a.complete(), a.stopReason());
    publishFrom("group-rides", first, 1_000, "avro");

    LocalRun.Result sameGroup =
        consume(
            out.resolve("b"),
            "group-rides",
            "shared",
            "kafka_groups.rides_b",
            0,
            "--writeMethod=at-least-once",
            "--messageFormat=avro",
            "--rowFormat=typed",
            "--timeoutSeconds=25");
    LocalRun.Result ownGroup =
        consume(
            out.resolve("c"),
            "group-rides",
            "own",
            "kafka_groups.rides_c",
            first + 1_000,
            "--writeMethod=at-least-once",
            "--messageFormat=avro",
            "--rowFormat=typed");

    assertEquals(
        first + 1_000, ownGroup.verification().distinctMessageIds(), "its own group: every record");
    long skipped = first + 1_000 - sameGroup.verification().distinctMessageIds();
    assertTrue(
        skipped >= first * 0.9,
        "the shared group's job read "
            + sameGroup.verification().distinctMessageIds()
            + " records: it should have started near the first job's committed offsets");
  }

  private static LocalRun.Result consume(
      Path out, String topic, String group, String table, long expected, String... flags)
      throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--source=kafka",
                "--bootstrapServers=" + kafka.bootstrapServers(),
                "--kafkaTopic=" + topic,
                "--consumerGroup=" + group,
                "--project=ingestbench-test",
                "--outputTable=" + table,
                "--expectedMessages=" + expected,
                "--localOutputDir=" + out));
    args.addAll(List.of(flags));
    if (args.stream().noneMatch(a -> a.startsWith("--timeoutSeconds="))) {
      args.add("--timeoutSeconds=240");
    }
    ConsumerOptions options = LocalConsumer.parse(args.toArray(new String[0]));
    return LocalConsumer.runLocally(options, ConsumerConfig.from(options));
  }

  private static void publish(String topic, long count, String format) throws Exception {
    publishFrom(topic, 0, count, format);
  }

  private static void publishFrom(String topic, long first, long count, String format)
      throws Exception {
    PipelineOptionsFactory.register(PublisherOptions.class);
    PublisherOptions options =
        PipelineOptionsFactory.fromArgs(
                "--sink=kafka",
                "--bootstrapServers=" + kafka.bootstrapServers(),
                "--kafkaTopic=" + topic,
                "--kafkaPartitions=" + PARTITIONS,
                "--messageFormat=" + format,
                "--firstEventIndex=" + first,
                "--numMessages=" + count,
                "--publisherShards=2")
            .as(PublisherOptions.class);
    assertEquals(
        count, PublisherPipeline.counter(PublisherPipeline.run(options), "messages_published"));
  }

  /** One record as a misbehaving producer would send it. */
  private static void publishRaw(String topic, byte[] value, String eventIndex) throws Exception {
    Properties config = new Properties();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
      ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, null, value);
      record
          .headers()
          .add(new RecordHeader("event_index", eventIndex.getBytes(StandardCharsets.UTF_8)));
      producer.send(record).get();
    }
  }

  /** Rows per table_id in a per-minute timeline CSV, successful appends only. */
  private static Map<String, Long> timelineRows(Path csv) throws Exception {
    Map<String, Long> rows = new HashMap<>();
    List<String> lines = Files.readAllLines(csv);
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",", -1);
      if (f[6].equals("OK")) {
        rows.merge(f[4], Long.parseLong(f[8]), Long::sum);
      }
    }
    return rows;
  }
}
