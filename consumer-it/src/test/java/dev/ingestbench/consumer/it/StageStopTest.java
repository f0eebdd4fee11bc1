package dev.ingestbench.consumer.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.bigquery.BigQueryEmulator;
import dev.ingestbench.bigquery.EmulatorSettings;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An exactly-once consumer stopped mid-stream as a stage stops it (standard input closed): it
 * drains, so every row it appended is flushed and visible. A cancel at that moment leaves rows
 * appended and never flushed, whose messages were acknowledged already: lost (docs/scenarios.md,
 * 'Stopping a job').
 */
@Tag("e2e")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class StageStopTest {
  private static final long MESSAGES = 60_000;
  @RegisterExtension static final LocalPubsub pubsub = new LocalPubsub();

  @Test
  void anExactlyOnceJobStoppedMidStreamDrainsAndLeavesNoRowUnflushed() throws Exception {
    try (BigQueryEmulator server = BigQueryEmulator.start(EmulatorSettings.defaults())) {
      assertEquals(MESSAGES, pubsub.publish("t-drain", "s-drain", MESSAGES));
      // Kept under target/ for a failure's reader.
      Path log = Files.createDirectories(Path.of("target", "stage-stop")).resolve("consumer.log");
      Process consumer =
          new ProcessBuilder(
                  ConsumerJvm.command(
                      "768m",
                      "--pubsubEmulatorHost=" + pubsub.host(),
                      "--project=" + LocalPubsub.PROJECT,
                      "--subscription=s-drain",
                      "--outputTable=stages.rides",
                      "--writeMethod=exactly-once",
                      "--jobName=drain",
                      "--stopOnStdinEof=true",
                      "--timeoutSeconds=150",
                      "--storageWriteEndpoint=" + server.grpcAddress(),
                      "--bigQueryEndpoint=" + server.restUrl()))
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      try {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (server.status().job("drain").rowsWritten() < 5_000
            && consumer.isAlive()
            && System.nanoTime() < deadline) {
          Thread.sleep(200);
        }
        assertTrue(consumer.isAlive(), "the consumer runs: " + Files.readString(log));
        consumer.getOutputStream().close(); // as a stage stops its job
        assertTrue(consumer.waitFor(120, TimeUnit.SECONDS), "the consumer stopped");
      } finally {
        consumer.destroyForcibly();
      }
      String output = Files.readString(log);
      assertEquals(
          ExitCodes.OK,
          consumer.exitValue(),
          "a job with no --expectedMessages is complete when stopped: " + output);
      assertTrue(output.contains("Drained in"), output);
      EmulatorStatus status = server.status();
      EmulatorStatus.Job job = status.job("drain");
      assertTrue(
          job.distinctMessageIds() < MESSAGES, "stopped mid-stream: " + job.distinctMessageIds());
      assertEquals(
          0, status.invisibleRows(), "every appended row was flushed: " + status.streams());
      assertEquals(0, job.duplicates());
    }
  }
}
