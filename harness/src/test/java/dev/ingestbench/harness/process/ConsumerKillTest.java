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

  /**
   * Flink deletes the previous checkpoint whenever a new one completes; a walk that meets a directory
   * removed under it must look again rather than fail the round.
   */
  @Test
  void aCheckpointRemovedDuringTheWalkIsNotAnError(@TempDir Path dir) throws Exception {
    Path job = dir.resolve("0f3c9a");
    Files.createDirectories(job.resolve("chk-1"));
    Files.writeString(job.resolve("chk-1").resolve("_metadata"), "m");
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    Thread flink = new Thread(() -> {
      for (int n = 2; !stop.get(); n++) {
        try {
          Path next = job.resolve("chk-" + n);
          Files.createDirectories(next.resolve("op"));
          Files.writeString(next.resolve("op").resolve("state"), "s");
          Files.writeString(next.resolve("_metadata"), "m");
          Path old = job.resolve("chk-" + (n - 1));
          Files.delete(old.resolve("_metadata"));
          Files.delete(old.resolve("op").resolve("state"));
          Files.delete(old.resolve("op"));
          Files.delete(old);
        } catch (java.io.IOException e) {
          Files.exists(job); // chk-1 has no op/ directory: nothing to do
        }
      }
    });
    Files.createDirectories(job.resolve("chk-1").resolve("op"));
    Files.writeString(job.resolve("chk-1").resolve("op").resolve("state"), "s");
    flink.start();
    try {
      for (int i = 0; i < 20_000; i++) {
        // Empty is allowed (a walk may list the old directory before the new one exists, and meet it
        // deleted): the kill then waits a turn. Once the consumer is killed nothing changes any more.
        ConsumerKill.latestCheckpoint(dir);
      }
    } finally {
      stop.set(true);
      flink.join();
    }
  }
}
