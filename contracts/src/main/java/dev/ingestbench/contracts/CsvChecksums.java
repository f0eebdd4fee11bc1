package dev.ingestbench.contracts;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The run id of a round's CSV files. A CSV keeps the columns of the view or tool it mirrors, so it
 * cannot carry the id itself; instead the round records each file's SHA-256 under its run id once
 * every process has stopped, and the analysis refuses a CSV whose content is not the recorded one
 * (a file copied in from another round, or written after the round ended).
 *
 * @param runId the round's run id ({@code round.json})
 * @param sha256 path relative to the round directory (a job's files as {@code job-2/...}) to hex
 *     SHA-256
 */
public record CsvChecksums(String runId, Map<String, String> sha256) {

  /** Checksums of every {@code *.csv} in {@code dir} and its job subdirectories. */
  public static CsvChecksums of(Path dir, String runId) throws IOException {
    Map<String, String> sums = new TreeMap<>();
    try (Stream<Path> files =
        Files.find(
            dir,
            2,
            (path, attributes) ->
                attributes.isRegularFile() && path.getFileName().toString().endsWith(".csv"))) {
      for (Path file : files.toList()) {
        sums.put(dir.relativize(file).toString().replace('\\', '/'), sha256(file));
      }
    }
    return new CsvChecksums(runId, sums);
  }

  /** The file's SHA-256 as lowercase hex. */
  public static String sha256(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      byte[] buffer = new byte[1 << 16];
      for (int n; (n = in.read(buffer)) > 0; ) {
        digest.update(buffer, 0, n);
      }
      return HexFormat.of().formatHex(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new UncheckedIOException(new IOException("this JVM has no SHA-256", e));
    }
  }
}
