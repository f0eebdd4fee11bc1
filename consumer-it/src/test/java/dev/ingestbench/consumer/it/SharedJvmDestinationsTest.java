package dev.ingestbench.consumer.it;

import static dev.ingestbench.consumer.it.FaultRuns.MESSAGES;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ingestbench.bigquery.BigQueryEmulator;
import dev.ingestbench.bigquery.EmulatorSettings;
import dev.ingestbench.contracts.EmulatorStatus;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two pipelines of several tables in one JVM, with different row schemas: Beam keeps its row
 * converters in a JVM-wide cache keyed by the write's transform name and the destination, so
 * destinations that meet across pipelines (table numbers did) gave the second pipeline the first
 * one's schema, and every row of it was dead-lettered ("unexpected field with name attributes").
 */
@Tag("e2e")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SharedJvmDestinationsTest {
  @RegisterExtension static final LocalPubsub pubsub = new LocalPubsub();

  @Test
  void twoPipelinesOfFourTablesEachWriteWithTheirOwnSchema() throws Exception {
    try (BigQueryEmulator server = BigQueryEmulator.start(EmulatorSettings.defaults())) {
      for (String[] run :
          new String[][] {
            {"typedfour", "--rowFormat=typed"}, {"jsonfour", "--rowFormat=json-column"}
          }) {
        EmulatorStatus status =
            FaultRuns.consume(
                pubsub, server, run[0], "at-least-once", run[1], "--destinationTables=4");
        EmulatorStatus.Job job = status.job(run[0]);
        assertEquals(0, job.deadLettered(), run[0] + ": " + job.deadLetterErrors());
        assertEquals(MESSAGES, job.distinctMessageIds(), run[0]);
      }
    }
  }
}
