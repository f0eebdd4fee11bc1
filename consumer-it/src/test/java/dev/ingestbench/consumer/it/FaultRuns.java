package dev.ingestbench.consumer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.bigquery.BigQueryEmulator;
import dev.ingestbench.consumer.ConsumerConfig;
import dev.ingestbench.consumer.ConsumerOptions;
import dev.ingestbench.consumer.local.LocalConsumer;
import dev.ingestbench.consumer.local.LocalRun;
import dev.ingestbench.contracts.EmulatorStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * Test helper of the fault tests: a consumer run in this JVM (embedded Flink, the official client)
 * from the Pub/Sub emulator into a BigQuery emulator, on a topic, subscription and table of its
 * own.
 */
final class FaultRuns {
  static final long MESSAGES = 10_000;

  private FaultRuns() {}

  /**
   * Publishes MESSAGES to a topic of its own and consumes them into {@code server} until complete.
   */
  static EmulatorStatus consume(
      LocalPubsub pubsub, BigQueryEmulator server, String name, String writeMethod, String... extra)
      throws Exception {
    assertEquals(MESSAGES, pubsub.publish("t-" + name, "s-" + name, MESSAGES));
    server.contentSeed(1); // the publisher's default --seed
    List<String> args = args(pubsub, server, name, writeMethod, 150);
    args.addAll(List.of(extra));
    LocalRun.Result result = run(args);
    assertTrue(result.complete(), result.stopReason());
    return server.status();
  }

  static LocalRun.Result run(List<String> args) throws Exception {
    ConsumerOptions options = LocalConsumer.parse(args.toArray(String[]::new));
    return LocalConsumer.runLocally(options, ConsumerConfig.from(options));
  }

  static List<String> args(
      LocalPubsub pubsub,
      BigQueryEmulator server,
      String name,
      String writeMethod,
      int timeoutSeconds) {
    return new ArrayList<>(
        List.of(
            "--pubsubEmulatorHost=" + pubsub.host(),
            "--project=" + LocalPubsub.PROJECT,
            "--subscription=s-" + name,
            "--outputTable=faults.rides_" + name,
            "--writeMethod=" + writeMethod,
            "--jobName=" + name,
            "--expectedMessages=" + MESSAGES,
            "--timeoutSeconds=" + timeoutSeconds,
            "--storageWriteEndpoint=" + server.grpcAddress(),
            "--bigQueryEndpoint=" + server.restUrl()));
  }
}
