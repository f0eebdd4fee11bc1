package dev.ingestbench.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.job.RowFormat;
import dev.ingestbench.contracts.job.WriteMethod;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;

class ConsumerConfigTest {
  /** Valid base flags; a flag in {@code extra} replaces the base flag of the same name. */
  private static ConsumerOptions options(String... extra) {
    Map<String, String> flags = new LinkedHashMap<>();
    for (String arg :
        List.of(
            "--project=ingestbench-test", "--subscription=rides-a", "--outputTable=bench.rides")) {
      flags.put(arg.substring(0, arg.indexOf('=')), arg);
    }
    for (String arg : extra) {
      flags.put(arg.substring(0, arg.indexOf('=')), arg);
    }
    PipelineOptionsFactory.register(ConsumerOptions.class);
    return PipelineOptionsFactory.fromArgs(flags.values().toArray(new String[0]))
        .as(ConsumerOptions.class);
  }

  private static ConsumerConfig config(String... extra) {
    return ConsumerConfig.from(options(extra));
  }

  private static String failure(String... extra) {
    return assertThrows(IllegalArgumentException.class, () -> ConsumerConfig.from(options(extra)))
        .getMessage();
  }

  @Test
  void defaultsAreExactlyOnceJsonColumnOneTableWithOneSecondTriggering() {
    ConsumerOptions options = options();
    ConsumerConfig config = ConsumerConfig.from(options);
    assertEquals(WriteMethod.EXACTLY_ONCE, config.writeMethod());
    assertEquals(RowFormat.JSON_COLUMN, config.rowFormat());
    assertEquals("ingestbench-test:bench.rides", config.target().spec(0));
    assertEquals(1, config.triggeringFrequencySec());
    assertEquals(
        null,
        options.getStorageWriteApiTriggeringFrequencySec(),
        "the frequency sits on the exactly-once write, not on every write of the pipeline");
    assertTrue(
        options.getUseStorageWriteApi() && !options.getUseStorageWriteApiAtLeastOnce(),
        "Beam's own flags agree with the write method");
  }

  /**
   * A local run's quiet period must outlast a redelivery and a commit, or it could call a message
   * lost that is on its way; it is local-only, so no Dataflow launch is refused for it.
   */
  @Test
  void theQuietPeriodOutlastsTheAckDeadlinePlusTheTriggeringFrequencyOnLocalRunsOnly() {
    assertEquals(30, config("--sink=in-process").quietPeriodSeconds());
    assertTrue(
        failure("--sink=in-process", "--quietPeriodSeconds=11")
            .contains("--quietPeriodSeconds=11 must be 0 (never) or above 11 s"));
    assertTrue(
        failure(
                "--sink=in-process",
                "--storageWriteApiTriggeringFrequencySec=30",
                "--quietPeriodSeconds=30")
            .contains("or above 40 s"));
    assertEquals(0, config("--sink=in-process", "--quietPeriodSeconds=0").quietPeriodSeconds());
    assertEquals(
        60,
        config("--sink=bigquery", "--storageWriteApiTriggeringFrequencySec=60")
            .triggeringFrequencySec(),
        "a job for BigQuery itself never runs the local quiet period: not refused for it");
    assertTrue(failure("--quietPeriodSeconds=-1").contains("--quietPeriodSeconds=-1 must be 0"));
  }

  @Test
  void everySpellingOfTheWriteMethodIsNormalisedOnce() {
    for (String spelling :
        List.of(
            "at-least-once",
            "AT_LEAST_ONCE",
            "at_least_once",
            "STORAGE_API_AT_LEAST_ONCE",
            "storage_api_at_least_once")) {
      assertEquals(
          WriteMethod.AT_LEAST_ONCE,
          ConsumerConfig.from(options("--writeMethod=" + spelling)).writeMethod(),
          spelling);
    }
    for (String spelling :
        List.of("exactly-once", "EXACTLY_ONCE", "STORAGE_WRITE_API", "storage-write-api")) {
      assertEquals(
          WriteMethod.EXACTLY_ONCE,
          ConsumerConfig.from(options("--writeMethod=" + spelling)).writeMethod(),
          spelling);
    }
  }

  @Test
  void beamsStorageWriteApiFlagsMapOntoTheWriteMethod() {
    ConsumerOptions options =
        options("--useStorageWriteApi=true", "--useStorageWriteApiAtLeastOnce=true");
    assertEquals(WriteMethod.AT_LEAST_ONCE, ConsumerConfig.from(options).writeMethod());
    assertEquals(
        WriteMethod.EXACTLY_ONCE,
        ConsumerConfig.from(options("--useStorageWriteApi=true")).writeMethod());
    assertEquals(
        WriteMethod.AT_LEAST_ONCE,
        ConsumerConfig.from(
                options("--useStorageWriteApiAtLeastOnce=true", "--writeMethod=at-least-once"))
            .writeMethod(),
        "agreeing flags are fine");
  }

  @Test
  void beamsFlagsThatDisagreeWithTheWriteMethodAreRefused() {
    String message =
        failure(
            "--writeMethod=exactly-once",
            "--useStorageWriteApi=true",
            "--useStorageWriteApiAtLeastOnce=true");
    assertTrue(
        message.contains("--writeMethod=exactly-once disagrees")
            && message.contains("--useStorageWriteApiAtLeastOnce=true")
            && message.contains("--writeMethod=at-least-once"),
        message);
    message = failure("--writeMethod=at-least-once", "--useStorageWriteApi=true");
    assertTrue(
        message.contains("--useStorageWriteApi=true") && message.contains("means exactly-once"),
        message);
  }

  @Test
  void poolingWithExactlyOnceFailsNamingBothFlagsAndTheFix() {
    String message = failure("--useStorageApiConnectionPool=true");
    assertTrue(
        message.contains("--useStorageApiConnectionPool")
            && message.contains("--writeMethod=at-least-once"),
        message);
  }

  @Test
  void poolingWithAtLeastOnceIsAccepted() {
    ConsumerConfig config =
        ConsumerConfig.from(
            options("--useStorageApiConnectionPool=true", "--writeMethod=at-least-once"));
    assertEquals(WriteMethod.AT_LEAST_ONCE, config.writeMethod());
  }

  @Test
  void flagsThatAtLeastOnceIgnoresAreRefused() {
    assertTrue(
        failure("--writeMethod=at-least-once", "--numStorageWriteApiStreams=4")
            .contains("--numStorageWriteApiStreams"));
    assertTrue(
        failure("--writeMethod=at-least-once", "--storageWriteApiTriggeringFrequencySec=5")
            .contains("--storageWriteApiTriggeringFrequencySec"));
  }

  @Test
  void kafkaFlagsAreCheckedAtLaunchWithTheFix() {
    assertTrue(
        failure("--source=kafka", "--kafkaTopic=t").contains("--bootstrapServers=HOST:PORT"));
    assertTrue(
        failure("--source=kafka", "--bootstrapServers=broker", "--kafkaTopic=t")
            .contains("'broker' is not HOST:PORT"));
    assertTrue(
        failure("--source=kafka", "--bootstrapServers=b:9092").contains("--kafkaTopic=TOPIC"));
    assertTrue(
        failure(
                "--source=kafka",
                "--bootstrapServers=b:9092",
                "--kafkaTopic=t",
                "--kafkaConsumerConfig=group.id=x")
            .contains("use --consumerGroup"));
    assertTrue(
        failure(
                "--source=kafka",
                "--bootstrapServers=b:9092",
                "--kafkaTopic=t",
                "--kafkaConsumerConfig=fetch.min.bytes")
            .contains("is not KEY=VALUE"));
    assertTrue(failure("--kafkaTopic=t").contains("are for --source=kafka"));
  }

  @Test
  void unknownValuesListTheAcceptedOnes() {
    assertTrue(
        failure("--writeMethod=sometimes")
            .contains("use exactly-once (or STORAGE_WRITE_API) or at-least-once"));
    assertTrue(failure("--rowFormat=xml").contains("json-column, typed"));
    assertTrue(failure("--source=files").contains("pubsub, kafka, synthetic"));
    assertTrue(failure("--messageFormat=xml").contains("json, avro"));
    assertTrue(failure("--sink=s3").contains("auto, local, emulator, bigquery"));
  }

  @Test
  void theSinkFollowsTheEmulatorsAddressesAndRefusesHalfOfThem() {
    assertEquals(SinkKind.LOCAL, config().sink());
    assertEquals(SinkKind.LOCAL, config("--sink=in-process").sink());
    ConsumerConfig shared =
        config("--storageWriteEndpoint=127.0.0.1:9060", "--bigQueryEndpoint=http://127.0.0.1:9050");
    assertEquals(SinkKind.EMULATOR, shared.sink());
    assertEquals("127.0.0.1:9060", shared.storageWriteEndpoint());
    assertTrue(
        failure("--sink=emulator")
            .contains("--storageWriteEndpoint=HOST:PORT and --bigQueryEndpoint"));
    assertTrue(failure("--storageWriteEndpoint=127.0.0.1:9060").contains("--bigQueryEndpoint"));
    assertTrue(
        failure("--sink=local", "--storageWriteEndpoint=127.0.0.1:9060")
            .contains("only for --sink=emulator"));
  }

  @Test
  void tablesAndPoolSizesAreChecked() {
    assertTrue(failure("--destinationTables=0").contains("--destinationTables"));
    assertTrue(failure("--outputTable=no-dataset").contains("--outputTable"));
    assertTrue(
        failure(
                "--writeMethod=at-least-once",
                "--minConnectionPoolConnections=9",
                "--maxConnectionPoolConnections=3")
            .contains("min <= max"));
    assertTrue(failure("--maxMessageBytes=0").contains("between 1 and 10000000"));
    assertTrue(failure("--maxMessageBytes=10000001").contains("10 MB"));
    assertEquals(9_000_000, config().maxMessageBytes());
  }

  @Test
  void aPubsubSourceNeedsASubscription() {
    PipelineOptionsFactory.register(ConsumerOptions.class);
    ConsumerOptions options =
        PipelineOptionsFactory.fromArgs("--project=ingestbench-test", "--outputTable=bench.rides")
            .as(ConsumerOptions.class);
    String message =
        assertThrows(IllegalArgumentException.class, () -> ConsumerConfig.from(options))
            .getMessage();
    assertTrue(message.contains("--subscription is required"), message);
  }

  @Test
  void dynamicDestinationsNameTablesBySuffix() {
    ConsumerConfig config = ConsumerConfig.from(options("--destinationTables=4"));
    assertEquals("ingestbench-test:bench.rides_3", config.target().spec(3));
    assertEquals("rides_dlq", config.target().deadLetters().tableId(0));
  }
}
