package dev.ingestbench.consumer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ingestbench.bigquery.BigQueryEmulator;
import dev.ingestbench.bigquery.EmulatorSettings;
import dev.ingestbench.consumer.rows.ConvertToRowsFn;
import dev.ingestbench.contracts.EmulatorStatus;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The consumer as a round runs it, into a BigQuery emulator without faults, with one of its workers
 * failing mid-stream: Flink restarts the job and the count of what was written must still hold. (A
 * class of its own, beside EmulatorFaultsTest's faults of the store, so that the two run in
 * different test JVMs at once.)
 */
@Tag("e2e")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class WorkerFailureTest {
  private static final long MESSAGES = FaultRuns.MESSAGES;
  @RegisterExtension static final LocalPubsub pubsub = new LocalPubsub();

  /**
   * A worker failing mid-bundle ({@code --failAtMessage}): Flink restarts the job from its last
   * checkpoint in the same JVM. Nothing may be lost; duplicates are counted. Exactly-once is not
   * asserted exact: rows Beam flushed after the checkpoint are replayed and written again (measured
   * and explained in docs/bigquery-emulator.md, 'A worker failure').
   */
  @ParameterizedTest(name = "{0} after a worker failure")
  @CsvSource({"exactly-once", "at-least-once"})
  void aWorkerFailureLosesNothingAndItsDuplicatesAreCounted(String writeMethod) throws Exception {
    String name = writeMethod.replace("-", "") + "failat";
    long failuresBefore = ConvertToRowsFn.failuresInjected();
    try (BigQueryEmulator server = BigQueryEmulator.start(EmulatorSettings.defaults())) {
      EmulatorStatus status =
          FaultRuns.consume(pubsub, server, name, writeMethod, "--failAtMessage=" + MESSAGES / 2);
      EmulatorStatus.Job written = status.job(name);
      assertEquals(
          failuresBefore + 1,
          ConvertToRowsFn.failuresInjected(),
          "the worker failed once and was restarted");
      assertEquals(MESSAGES, written.distinctMessageIds(), "no message lost across the restart");
      assertEquals(
          written.rowsWritten() - written.distinctMessageIds(),
          written.duplicates(),
          "every replayed row is counted as a duplicate");
    }
  }
}
