package dev.ingestbench.consumer.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Makes {@code --savepointPath} work on an embedded Flink.
 *
 * <p>Beam 2.70's FlinkRunner passes {@code --savepointPath} to Flink only when it submits to a
 * remote master ({@code FlinkExecutionEnvironments}: the {@code [local]} and {@code [auto]} branches
 * never read it). An embedded job given the flag therefore starts empty, without a word: no keyed
 * state, no timers, no source positions, and the sources resume from what they had acknowledged
 * (Pub/Sub) or committed (Kafka). An embedded Flink does read {@code execution.savepoint.path} from
 * its configuration, which Beam loads from {@code --flinkConfDir}; this class writes that directory.
 */
final class LocalSavepointRestore {
  private LocalSavepointRestore() {}

  /**
   * Writes a Flink configuration directory that restores {@code savepointPath} and returns it.
   *
   * @param dirPrefix the directory's name is this prefix plus a unique suffix, so that the clean-up
   *     of a killed run's checkpoints ({@link LocalRunnerDefaults#deleteOrphanedCheckpoints}) also
   *     removes it
   */
  static Path writeConfDir(String savepointPath, boolean allowNonRestoredState, Path dirPrefix) {
    try {
      Path dir = Files.createTempDirectory(dirPrefix.getParent(), dirPrefix.getFileName().toString());
      Path file = dir.resolve("config.yaml");
      Files.writeString(file, String.join("\n",
          "# Written by ingestbench: Beam's FlinkRunner ignores --savepointPath on an embedded Flink.",
          "execution.savepoint.path: " + quoted(savepointPath),
          "execution.savepoint.ignore-unclaimed-state: " + allowNonRestoredState,
          ""), StandardCharsets.UTF_8);
      // Deleted in the reverse order of registration: the file, then its directory.
      dir.toFile().deleteOnExit();
      file.toFile().deleteOnExit();
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the Flink configuration that restores " + savepointPath, e);
    }
  }

  /** A YAML double-quoted scalar. */
  private static String quoted(String value) {
    return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
