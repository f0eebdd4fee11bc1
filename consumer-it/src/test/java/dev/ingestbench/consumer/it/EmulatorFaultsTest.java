package dev.ingestbench.consumer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.bigquery.BigQueryEmulator;
import dev.ingestbench.bigquery.EmulatorSettings;
import dev.ingestbench.contracts.EmulatorStatus;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The consumer as a round runs it (Pub/Sub emulator, embedded Flink, Beam's streaming Storage Write
 * path, the official client) into a shared BigQuery emulator that injects faults: exactly-once must
 * still write every row once; at-least-once must lose none, and its duplicates are counted. A
 * worker that fails is WorkerFailureTest's.
 */
@Tag("e2e")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class EmulatorFaultsTest {
  private static final long MESSAGES = FaultRuns.MESSAGES;
  @RegisterExtension static final LocalPubsub pubsub = new LocalPubsub();

  /**
   * A failed append and a lost answer act together in one run per write method (each run is an
   * embedded Flink's start and 10,000 rows, 9-12 s here once warm; a run per fault was two runs
   * more): each writer must recover from each while the other happens too.
   */
  @ParameterizedTest(name = "{0} under {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "exactly-once | unavailable=0.25 drop=0.25",
        "at-least-once | unavailable=0.25 drop=0.25",
        // One failing answer per RPC: internal has a run of its own.
        "exactly-once | internal=0.25",
        // After the second append: both writers make more than that for 10,000 rows, so the
        // drain always comes while they still write (a time-based drain did not, on a fast or a
        // slow machine).
        "exactly-once | drain-after=2",
        "at-least-once | drain-after=2",
      })
  void everyMessageArrivesAndDuplicatesAreCounted(String writeMethod, String faults)
      throws Exception {
    String name = writeMethod.replace("-", "") + faults.replaceAll("[^a-z0-9]", "");
    List<String> fault = List.of(faults.split(" "));
    try (BigQueryEmulator server =
        BigQueryEmulator.start(EmulatorSettings.defaults().withFaults(fault))) {
      EmulatorStatus status = FaultRuns.consume(pubsub, server, name, writeMethod);
      EmulatorStatus.Job written = status.job(name);
      assertTrue(status.faultsInjected() > 0, "the fault happened");
      assertEquals(MESSAGES, written.distinctMessageIds(), "no message lost");
      assertEquals(
          written.rowsWritten() - written.distinctMessageIds(),
          written.duplicates(),
          "every extra row is counted as a duplicate");
      assertEquals(
          0,
          written.mismatchedRows(),
          "every row holds its event, column by column: " + written.mismatches());
      if (writeMethod.equals("exactly-once")) {
        assertEquals(
            0, written.duplicates(), "exactly-once writes each row once whatever the fault");
      }
      if (faults.startsWith("drain")) {
        assertTrue(
            status.connectionsOpened() > written.peakConnections(),
            "the writers reconnected after the drain: opened "
                + status.connectionsOpened()
                + ", peak "
                + written.peakConnections()
                + ", "
                + status.appendRequests()
                + " appends");
      }
    }
  }
}
