package dev.ingestbench.consumer.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The Flink configuration directory of an embedded run ({@code --flinkConfDir}, which Beam's
 * FlinkRunner loads for {@code [local]} too): every server the embedded Flink starts listens on
 * loopback only, and a checkpoint to restore ({@link LocalSavepointRestore}) is named here.
 *
 * <p>A consumer's also names the {@link CheckpointReporter}, which its sampler reads each second.
 *
 * <p>Flink binds its REST endpoint ({@code rest.bind-address}) and its blob server ({@code
 * jobmanager.bind-host}) to the wildcard address unless told otherwise: a local round would
 * otherwise offer its job's REST API and uploaded jars to the whole network.
 */
final class LocalFlinkConf {
  /** Keys that keep the embedded Flink's servers on loopback. */
  static final List<String> LOOPBACK =
      List.of(
          "rest.address: 127.0.0.1",
          "rest.bind-address: 127.0.0.1",
          "jobmanager.bind-host: 127.0.0.1");

  private LocalFlinkConf() {}

  /**
   * Writes {@code config.yaml} with the loopback keys and {@code more}, and returns its directory.
   *
   * @param dirPrefix the directory's name is this prefix plus a unique suffix, so that the clean-up
   *     of a killed run's checkpoints ({@link LocalRunnerDefaults#deleteOrphanedCheckpoints}) also
   *     removes it
   */
  static Path write(List<String> more, Path dirPrefix) {
    return write(more, dirPrefix, false);
  }

  /**
   * As {@link #write}, with {@code tmp/} inside the directory as the embedded Flink's {@code
   * io.tmp.dirs}: what it leaves there (its RPC jar, its working directory) goes with the
   * directory.
   */
  static Path writeWithOwnTmp(Path dirPrefix) {
    return write(List.of(), dirPrefix, true);
  }

  private static Path write(List<String> more, Path dirPrefix, boolean ownTmp) {
    List<String> lines = new ArrayList<>();
    lines.add("# Written by ingestbench for an embedded Flink: its servers on loopback only.");
    lines.addAll(LOOPBACK);
    if (!ownTmp) {
      lines.add(CheckpointReporter.CONFIG_KEY); // a consumer's: its sampler reads the gauges
    }
    lines.addAll(more);
    try {
      Path dir =
          Files.createTempDirectory(dirPrefix.getParent(), dirPrefix.getFileName().toString());
      if (ownTmp) {
        lines.add("io.tmp.dirs: " + quoted(Files.createDirectory(dir.resolve("tmp")).toString()));
      }
      lines.add("");
      Path file = dir.resolve("config.yaml");
      Files.writeString(file, String.join("\n", lines), StandardCharsets.UTF_8);
      // Deleted in the reverse order of registration: the file, then its directory.
      dir.toFile().deleteOnExit();
      file.toFile().deleteOnExit();
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot write the embedded Flink's configuration under " + dirPrefix.getParent(), e);
    }
  }

  /** A YAML double-quoted scalar. */
  static String quoted(String value) {
    return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
