package dev.ingestbench.analysis.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The recorded rounds of src/test/resources/recorded, copied where a test may write beside them.
 */
public final class RecordedRounds {
  private RecordedRounds() {}

  /** Copies the directory {@code from} to {@code to}; returns {@code to}. */
  public static Path copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : files.toList()) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target);
        }
      }
    }
    return to;
  }
}
