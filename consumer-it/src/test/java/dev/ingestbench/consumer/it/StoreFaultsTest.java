package dev.ingestbench.consumer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.bigquery.BigQueryEmulator;
import dev.ingestbench.bigquery.EmulatorSettings;
import dev.ingestbench.consumer.local.LocalRun;
import dev.ingestbench.consumer.local.QuietDrain;
import dev.ingestbench.contracts.EmulatorStatus;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The verifier itself under test: a BigQuery emulator whose store duplicates, alters or discards
 * rows on its own while a real consumer writes through it. (A class of its own so that it runs
 * beside EmulatorFaultsTest in the module's second test JVM.)
 */
@Tag("e2e")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class StoreFaultsTest {
  private static final long MESSAGES = FaultRuns.MESSAGES;
  @RegisterExtension static final LocalPubsub pubsub = new LocalPubsub();

  /**
   * The verifier itself under test: a store that duplicates or discards rows on its own (the client
   * did nothing wrong). Exactly the injected rows must be reported as duplicates or lost, and a run
   * missing rows must name them.
   */
  @Test
  void aStoreThatDuplicatesRowsIsCaughtExactly() throws Exception {
    String name = "storeduplicates";
    try (BigQueryEmulator server =
        BigQueryEmulator.start(EmulatorSettings.defaults().withFaults(List.of("duplicate=0.5")))) {
      EmulatorStatus status = FaultRuns.consume(pubsub, server, name, "exactly-once");
      EmulatorStatus.Job written = status.job(name);
      assertTrue(status.rowsDuplicated() > 0, "the store duplicated rows");
      assertEquals(MESSAGES, written.distinctMessageIds());
      assertEquals(
          status.rowsDuplicated(),
          written.duplicates(),
          "every injected duplicate found, nothing else");
    }
  }

  @Test
  void aStoreThatCorruptsRowsIsCaughtExactly() throws Exception {
    String name = "storecorrupts";
    try (BigQueryEmulator server =
        BigQueryEmulator.start(EmulatorSettings.defaults().withFaults(List.of("corrupt=0.5")))) {
      EmulatorStatus status =
          FaultRuns.consume(pubsub, server, name, "at-least-once", "--rowFormat=typed");
      EmulatorStatus.Job written = status.job(name);
      assertTrue(status.rowsCorrupted() > 0, "the store altered rows");
      assertEquals(MESSAGES, written.distinctMessageIds(), "nothing lost: only altered");
      assertEquals(
          status.rowsCorrupted(),
          written.mismatchedRows(),
          "every altered row found, nothing else: " + written.mismatches());
      assertTrue(
          written.mismatches().get(0).matches("event_index \\d+: ride_id is '.*~', expected '.*'"),
          written.mismatches().toString());
    }
  }

  /**
   * Dynamic destinations, skewed, with a store that keeps every append in the next table: every row
   * is misrouted (an append carries the rows of one table, so none belongs in the next).
   * ConsumerRoundTripTest checks the same routing clean. The tables are made ahead: one ask for the
   * last table and four inserts before the pipeline starts, and the write checks none of them.
   */
  @Test
  void rowsInAnotherTableThanTheirEventsAreCaughtExactly() throws Exception {
    String[] skewed = {"--destinationTables=4", "--tableSkew=zipf:1.1", "--createTables=ahead"};
    try (BigQueryEmulator server =
        BigQueryEmulator.start(EmulatorSettings.defaults().withFaults(List.of("misroute=1")))) {
      String name = "misrouted";
      EmulatorStatus status = FaultRuns.consume(pubsub, server, name, "at-least-once", skewed);
      EmulatorStatus.Job written = status.job(name);
      assertEquals(
          MESSAGES,
          written.distinctMessageIds(),
          "nothing lost: only misplaced; dead letters: " + written.deadLetterErrors());
      assertEquals(written.rowsWritten(), written.misroutedRows(), "every row, nothing else");
      EmulatorStatus.ApiCalls calls = status.apiCalls();
      assertEquals(4, calls.tablesInsertCalls(), "the four tables made ahead, nothing more");
      assertEquals(
          1,
          calls.tablesGetCalls(),
          "CREATE_NEVER checks no table; the one ask is for the last table, before making them");
      assertTrue(
          written
              .misroutes()
              .get(0)
              .matches(
                  "event_index \\d+: in rides_misrouted_(\\d), its event goes to rides_misrouted_\\d"),
          written.misroutes().toString());
    }
  }

  @Test
  void aStoreThatDiscardsRowsIsCaughtExactlyAndTheMissingIndexesAreNamed() throws Exception {
    String name = "storediscards";
    try (BigQueryEmulator server =
        BigQueryEmulator.start(EmulatorSettings.defaults().withFaults(List.of("discard=0.5")))) {
      assertEquals(MESSAGES, pubsub.publish("t-" + name, "s-" + name, MESSAGES));
      // Rows are missing for good: the run must end with that answer once it has read every
      // message and written nothing for its quiet period, long before its timeout.
      List<String> args = FaultRuns.args(pubsub, server, name, "exactly-once", 240);
      args.add("--quietPeriodSeconds=15");
      LocalRun.Result result = FaultRuns.run(args);
      EmulatorStatus status = server.status();
      assertTrue(status.rowsDiscarded() > 0, "the store discarded rows");
      assertTrue(!result.complete(), "a run missing rows never completes");
      assertEquals(
          status.rowsDiscarded(),
          MESSAGES - status.job(name).distinctMessageIds(),
          "every discarded row is missing, nothing else");
      assertTrue(result.stopReason().contains("missing event indexes: "), result.stopReason());
      assertTrue(
          result.stopReason().startsWith(QuietDrain.STOP_REASON),
          "verified once everything was read and nothing written for 15 s, not at the timeout: "
              + result.stopReason());
      assertTrue(result.seconds() < 180, "took " + result.seconds() + " s");
    }
  }
}
