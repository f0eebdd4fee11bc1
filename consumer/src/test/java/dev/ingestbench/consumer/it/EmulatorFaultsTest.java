package dev.ingestbench.consumer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.bigquery.BigQueryEmulator;
import dev.ingestbench.bigquery.EmulatorSettings;
import dev.ingestbench.consumer.ConsumerConfig;
import dev.ingestbench.consumer.ConsumerOptions;
import dev.ingestbench.consumer.ConsumerPipeline;
import dev.ingestbench.consumer.local.LocalRun;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.emulator.PubsubEmulator;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The consumer as a round runs it (Pub/Sub emulator, embedded Flink, Beam's streaming Storage Write
 * path, the official client) into a shared BigQuery emulator that injects faults: exactly-once must
 * still write every row once; at-least-once must lose none, and its duplicates are counted.
 */
class EmulatorFaultsTest {
  private static final long MESSAGES = 10_000;
  private static PubsubEmulator pubsubEmulator;
  private static LocalPubsub pubsub;

  @BeforeAll
  static void startPubsub() throws Exception {
    pubsubEmulator = PubsubEmulator.start();
    pubsub = new LocalPubsub(pubsubEmulator);
  }

  @AfterAll
  static void stopPubsub() {
    if (pubsubEmulator != null) {
      pubsubEmulator.close();
    }
  }

  @ParameterizedTest(name = "{0} under {1}")
  @CsvSource({
    "exactly-once, unavailable=0.25",
    "at-least-once, unavailable=0.25",
    "exactly-once, internal=0.25",
    "exactly-once, drop=0.25",
    "at-least-once, drop=0.25",
    "exactly-once, drain-at=0.25",
    "at-least-once, drain-at=0.25",
  })
  void everyMessageArrivesAndDuplicatesAreCounted(String writeMethod, String fault) throws Exception {
    String name = writeMethod.replace("-", "") + fault.replaceAll("[^a-z0-9]", "");
    assertEquals(MESSAGES, pubsub.publish("t-" + name, "s-" + name, MESSAGES));
    try (BigQueryEmulator server = BigQueryEmulator.start(EmulatorSettings.defaults().withFaults(List.of(fault)))) {
      ConsumerOptions options = ConsumerPipeline.parse(new String[] {
          "--pubsubEmulatorHost=" + pubsub.host(),
          "--project=" + LocalPubsub.PROJECT,
          "--subscription=s-" + name,
          "--outputTable=faults.rides_" + name,
          "--writeMethod=" + writeMethod,
          "--jobName=" + name,
          "--expectedMessages=" + MESSAGES,
          "--timeoutSeconds=150",
          "--storageWriteEndpoint=" + server.grpcAddress(),
          "--bigQueryEndpoint=" + server.restUrl()});
      LocalRun.Result result = ConsumerPipeline.runLocally(options, ConsumerConfig.from(options));
      EmulatorStatus status = server.status();
      EmulatorStatus.Job written = status.job(name);
      assertTrue(result.complete(), result.stopReason());
      assertTrue(status.faultsInjected() > 0, "the fault happened");
      assertEquals(MESSAGES, written.distinctMessageIds(), "no message lost");
      assertEquals(written.rowsWritten() - written.distinctMessageIds(), written.duplicates(),
          "every extra row is counted as a duplicate");
      if (writeMethod.equals("exactly-once")) {
        assertEquals(0, written.duplicates(), "exactly-once writes each row once whatever the fault");
      }
      if (fault.startsWith("drain")) {
        assertTrue(status.connectionsOpened() > written.peakConnections(),
            "the writers reconnected after the drain: opened " + status.connectionsOpened());
      }
    }
  }
}
