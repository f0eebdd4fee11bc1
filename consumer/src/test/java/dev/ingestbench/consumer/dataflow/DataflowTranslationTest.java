package dev.ingestbench.consumer.dataflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.NoCredentials;
import dev.ingestbench.consumer.ConsumerConfig;
import dev.ingestbench.consumer.ConsumerOptions;
import dev.ingestbench.consumer.ConsumerPipeline;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.extensions.gcp.options.GcpOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The consumer graph, built exactly as {@code main} builds it for the real services, translated by
 * the DataflowRunner into a job specification, offline: {@code --templateLocation} makes the runner
 * write the job instead of submitting it, staging is replaced by {@link OfflineStager} and bucket
 * checks by Beam's no-op path validator. Catches graphs Dataflow cannot take before a user pays.
 */
class DataflowTranslationTest {
  @TempDir Path dir;

  static Stream<Arguments> combinations() {
    return Stream.of(
        Arguments.of("exactly-once", false, 1, "tablerow", "json-column"),
        Arguments.of("exactly-once", false, 4, "proto", "typed"),
        Arguments.of("at-least-once", false, 1, "tablerow", "typed"),
        Arguments.of("at-least-once", true, 1, "beam-row", "json-column"),
        Arguments.of("at-least-once", true, 8, "tablerow", "json-column"));
  }

  @ParameterizedTest(name = "{0}, pool {1}, {2} table(s), {3}, {4}")
  @MethodSource("combinations")
  void theConsumerTranslatesToAStreamingDataflowJob(
      String writeMethod, boolean pooling, int tables, String encoding, String format)
      throws Exception {
    Path spec = dir.resolve("job.json");
    List<String> args =
        new ArrayList<>(
            List.of(
                "--runner=DataflowRunner",
                "--project=ingestbench-offline",
                "--region=us-central1",
                "--subscription=taxi-rides-a",
                "--outputTable=ingestbench.taxi_rides",
                "--tempLocation=gs://ingestbench-offline/tmp",
                "--stagingLocation=gs://ingestbench-offline/staging",
                "--templateLocation=" + spec,
                "--pathValidatorClass=org.apache.beam.sdk.extensions.gcp.storage.NoopPathValidator",
                "--stagerClass=" + OfflineStager.class.getName(),
                "--validateOutputTable=false",
                "--enableStreamingEngine=true",
                "--writeMethod=" + writeMethod,
                "--destinationTables=" + tables,
                "--rowEncoding=" + encoding,
                "--rowFormat=" + format));
    if (pooling) {
      args.add("--useStorageApiConnectionPool=true");
    }
    translate(args, spec);

    JsonNode job = new ObjectMapper().readTree(spec.toFile());
    assertEquals(
        "JOB_TYPE_STREAMING", job.path("type").asText(), "a Pub/Sub read makes a streaming job");
    List<String> steps = stepNames(job);
    assertTrue(
        steps.contains("ReadMessages/Read from Pub/Sub/PubsubUnboundedSource"), steps.toString());
    assertEquals(
        "/subscriptions/ingestbench-offline/taxi-rides-a",
        job.findValue("pubsub_subscription").path("value").asText(),
        "reads the subscription given, in Dataflow's form");

    // The write method decides which of Beam's Storage Write API paths the rows take.
    boolean exactlyOnce = writeMethod.equals("exactly-once");
    assertEquals(
        exactlyOnce,
        steps.contains(
            "Write rows/Storage Write API/StorageApiLoads/StorageApiWriteSharded/Write Records"),
        "exactly-once writes through sharded application streams: " + steps);
    assertEquals(
        exactlyOnce,
        steps.contains(
            "Write rows/Storage Write API/StorageApiLoads/StorageApiWriteSharded/Flush and finalize writes"),
        "exactly-once flushes and finalizes its streams");
    assertEquals(
        !exactlyOnce,
        steps.contains(
            "Write rows/Storage Write API/StorageApiLoads/StorageApiWriteInconsistent/Write Records"),
        "at-least-once appends to the default stream: " + steps);
    // Dead letters always go at-least-once, whatever the rows do.
    assertTrue(
        steps.contains(
            "Write dead letters/Storage Write API/StorageApiLoads/StorageApiWriteInconsistent/Write Records"));

    // The options the job runs with agree with the flags.
    JsonNode options = job.findParent("useStorageApiConnectionPool");
    assertEquals(
        !exactlyOnce,
        options.path("useStorageWriteApiAtLeastOnce").asBoolean(),
        options.toString());
    assertTrue(options.path("useStorageWriteApi").asBoolean());
    assertEquals(pooling, options.path("useStorageApiConnectionPool").asBoolean());
    assertTrue(
        options.path("storageWriteApiTriggeringFrequencySec").isNull(),
        "the triggering frequency is set on the exactly-once write alone, not pipeline-wide");

    // The row encoding decides the coder of the converted rows.
    String rowCoder = outputCoders(job, "Convert to rows");
    String expectedCoder =
        switch (encoding) {
          case "proto" -> "ProtoCoder";
          case "beam-row" -> "RowCoder";
          default -> "TableRowJsonCoder";
        };
    assertTrue(
        rowCoder.contains(expectedCoder),
        encoding + " rows are encoded by " + expectedCoder + ": " + rowCoder);
    if (!encoding.equals("proto")) {
      assertFalse(rowCoder.contains("ProtoCoder"), rowCoder);
    }

    // Dynamic destinations are inside the write's serialized function; the job carries the count.
    assertEquals(tables, options.path("destinationTables").asInt());
  }

  private static List<String> stepNames(JsonNode job) {
    List<String> names = new ArrayList<>();
    job.path("steps")
        .forEach(
            step -> names.add(step.path("properties").path("user_name").path("value").asText()));
    return names;
  }

  private static String outputCoders(JsonNode job, String stepName) {
    for (JsonNode step : job.path("steps")) {
      if (step.path("properties").path("user_name").path("value").asText().equals(stepName)) {
        return step.path("properties").path("output_info").toString();
      }
    }
    throw new AssertionError("no step " + stepName);
  }

  @Test
  void theKafkaAvroConsumerTranslatesToAStreamingDataflowJobReadingWithKafkaIO() throws Exception {
    // The published round 6 as launched on Dataflow: Managed Kafka, Avro, 4 tables, at-least-once,
    // pool.
    Path spec = dir.resolve("kafka-job.json");
    List<String> args =
        new ArrayList<>(
            List.of(
                "--runner=DataflowRunner",
                "--project=ingestbench-offline",
                "--region=us-central1",
                "--source=kafka",
                "--bootstrapServers=bootstrap.ingestbench.us-central1.managedkafka.ingestbench-offline.cloud.goog:9092",
                "--kafkaTopic=taxi-rides",
                "--consumerGroup=round-6-a",
                "--kafkaGcpAuth=true",
                "--messageFormat=avro",
                "--outputTable=ingestbench.taxi_rides",
                "--tempLocation=gs://ingestbench-offline/tmp",
                "--stagingLocation=gs://ingestbench-offline/staging",
                "--templateLocation=" + spec,
                "--pathValidatorClass=org.apache.beam.sdk.extensions.gcp.storage.NoopPathValidator",
                "--stagerClass=" + OfflineStager.class.getName(),
                "--validateOutputTable=false",
                "--enableStreamingEngine=true",
                "--writeMethod=at-least-once",
                "--useStorageApiConnectionPool=true",
                "--destinationTables=4",
                "--rowFormat=typed",
                "--rowEncoding=proto",
                // Runner v2 (as the reference's Java rounds ran) reads with KafkaIO's splittable
                // DoFn, which
                // finds partitions on the workers; the legacy runner asks the brokers while
                // launching.
                "--experiments=use_runner_v2"));
    translate(args, spec);

    JsonNode job = new ObjectMapper().readTree(spec.toFile());
    assertEquals(
        "JOB_TYPE_STREAMING", job.path("type").asText(), "a Kafka read makes a streaming job");
    // Runner v2 carries the graph as a staged portable pipeline, not as the job's steps.
    String pipeline =
        OfflineStager.STAGED.entrySet().stream()
            .filter(e -> e.getKey().startsWith("pipeline"))
            .map(e -> new String(e.getValue(), StandardCharsets.ISO_8859_1))
            .findFirst()
            .orElseThrow(
                () -> new AssertionError("no pipeline staged: " + OfflineStager.STAGED.keySet()));
    for (String step :
        List.of(
            "ReadMessages/Read Kafka records/Read from Kafka",
            "ReadMessages/Read Kafka records/Records to messages",
            "Convert to rows",
            "Write rows/Storage Write API/StorageApiLoads/StorageApiWriteInconsistent/Write Records",
            "Write dead letters")) {
      assertTrue(pipeline.contains(step), "the pipeline has the step " + step);
    }
    assertTrue(
        pipeline.contains("ReadFromKafkaDoFn"),
        "KafkaIO's splittable read, partitions found on the workers");
    assertFalse(pipeline.contains("Read from Pub/Sub"));
    assertTrue(
        pipeline.contains("GcpLoginCallbackHandler"),
        "the SASL settings of Managed Kafka are in the job");
    assertTrue(pipeline.contains("ProtoCoder"), "proto rows");
    JsonNode options = job.findParent("useStorageApiConnectionPool");
    assertEquals("avro", options.path("messageFormat").asText());
    assertEquals("kafka", options.path("source").asText());
  }

  @Test
  void exactlyOnceWithoutStreamingEngineFailsAtLaunchNamingTheFix() {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--runner=DataflowRunner",
                "--project=ingestbench-offline",
                "--region=us-central1",
                "--subscription=taxi-rides-a",
                "--outputTable=ingestbench.taxi_rides",
                "--writeMethod=exactly-once"));
    ConsumerOptions options = ConsumerPipeline.parse(args.toArray(new String[0]));
    String message =
        assertThrows(IllegalArgumentException.class, () -> ConsumerConfig.from(options))
            .getMessage();
    assertTrue(
        message.contains("--enableStreamingEngine=true")
            && message.contains("--numStorageWriteApiStreams"),
        message);
  }

  private static void translate(List<String> args, Path spec) {
    ConsumerOptions options = ConsumerPipeline.parse(args.toArray(new String[0]));
    options.as(GcpOptions.class).setGcpCredential(NoCredentials.getInstance());
    Pipeline pipeline = Pipeline.create(options);
    ConsumerPipeline.build(pipeline, ConsumerConfig.from(options), null);
    pipeline.run();
  }
}
