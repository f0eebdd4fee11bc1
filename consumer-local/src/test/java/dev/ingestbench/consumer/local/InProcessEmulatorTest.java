package dev.ingestbench.consumer.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import java.nio.file.Path;
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
            PipelineOptionsFactory.as(BigQueryOptions.class), "job-1", 10, null, null)) {
      emulator.writeFiles(dir);
    }
    assertNull(RunJson.read(dir.resolve(RunFiles.BIGQUERY_EMULATOR), EmulatorStatus.class).runId());
  }
}
