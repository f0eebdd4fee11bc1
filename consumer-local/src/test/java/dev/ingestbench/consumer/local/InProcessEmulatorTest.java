package dev.ingestbench.consumer.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.ingestbench.contracts.AccountedIndexes;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code round --sink in-process}: the emulator inside the consumer names the round in its status
 * file, as the shared emulator does, or the round's analysis refuses the directory (it did: "from a
 * run without a run id").
 */
class InProcessEmulatorTest {
  @TempDir Path dir;

  @Test
  void itsStatusFileNamesTheRound() throws Exception {
    try (InProcessEmulator emulator =
        InProcessEmulator.start(
            PipelineOptionsFactory.as(BigQueryOptions.class),
            "job-1",
            10,
            "round-20261125-035043-e38a66",
            null,
            null)) {
      emulator.writeFiles(dir);
    }
    assertEquals(
        "round-20261125-035043-e38a66",
        RunJson.read(dir.resolve(RunFiles.BIGQUERY_EMULATOR), EmulatorStatus.class).runId());
  }

  @Test
  void outsideARoundItNamesNone() throws Exception {
    try (InProcessEmulator emulator =
        InProcessEmulator.start(
            PipelineOptionsFactory.as(BigQueryOptions.class), "job-1", 10, null, null, null)) {
      emulator.writeFiles(dir);
    }
    assertNull(RunJson.read(dir.resolve(RunFiles.BIGQUERY_EMULATOR), EmulatorStatus.class).runId());
  }

  /**
   * A scenario job writing in-process is sampled through the REST address its consumer announces,
   * and counted from its files once it stopped: the accounted indexes among them.
   */
  @Test
  void itAnnouncesItsRestAndLeavesItsAccountedIndexes() throws Exception {
    try (InProcessEmulator emulator =
        InProcessEmulator.start(
            PipelineOptionsFactory.as(BigQueryOptions.class), "job-1", 10, null, null, dir)) {
      Map<?, ?> announced = RunJson.read(dir.resolve(RunFiles.IN_PROCESS_BIGQUERY), Map.class);
      String rest = (String) announced.get(RunFiles.IN_PROCESS_BIGQUERY_REST);
      HttpResponse<String> status =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(rest + EmulatorStatus.PATH)).build(),
                  HttpResponse.BodyHandlers.ofString());
      assertEquals(200, status.statusCode(), status.body());
      assertFalse(Files.exists(dir.resolve(RunFiles.ACCOUNTED_INDEXES)));
      emulator.writeFiles(dir);
    }
    AccountedIndexes accounted =
        RunJson.read(dir.resolve(RunFiles.ACCOUNTED_INDEXES), AccountedIndexes.class);
    assertEquals("job-1", accounted.job());
    assertEquals(0, accounted.indexes().cardinality());
  }
}
