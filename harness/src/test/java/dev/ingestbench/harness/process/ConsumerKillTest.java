package dev.ingestbench.harness.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which checkpoint a killed consumer is restored from: the newest completed one, never a partial one. */
class ConsumerKillTest {
  @Test
  void theNewestCheckpointWithMetadataIsChosen(@TempDir Path dir) throws Exception {
    assertTrue(ConsumerKill.latestCheckpoint(dir.resolve("none")).isEmpty(), "no directory: nothing to restore");
    Path job = dir.resolve("0f3c9a");
    Files.createDirectories(job.resolve("chk-9"));
    Files.writeString(job.resolve("chk-9").resolve("_metadata"), "m");
    Files.createDirectories(job.resolve("chk-10"));
    Files.writeString(job.resolve("chk-10").resolve("_metadata"), "m");
    Files.createDirectories(job.resolve("chk-11")); // being written when the JVM was killed: no _metadata yet
    Files.createDirectories(job.resolve("shared"));
    assertEquals(job.resolve("chk-10"), ConsumerKill.latestCheckpoint(dir).orElseThrow(),
        "chk-10, not chk-9 (older) and not chk-11 (incomplete); 10 > 9 by number, not by name");
  }
}
