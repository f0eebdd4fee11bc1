package dev.ingestbench.analysis.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ingestbench.contracts.CsvChecksums;
import dev.ingestbench.contracts.RunFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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

  /**
   * Writes {@code lines} as the round's CSV file {@code name} and records its SHA-256 in {@code
   * csv_checksums.json}, as the round would have: the analysis refuses a CSV changed after its
   * round.
   */
  public static void rewrite(Path dir, String name, List<String> lines) throws IOException {
    Path file = dir.resolve(name);
    Files.write(file, lines);
    ObjectMapper json = new ObjectMapper();
    Path checksums = dir.resolve(RunFiles.CSV_CHECKSUMS);
    ObjectNode sums = (ObjectNode) json.readTree(checksums.toFile());
    ((ObjectNode) sums.get("sha256")).put(name, CsvChecksums.sha256(file));
    json.writeValue(checksums.toFile(), sums);
  }
}
