package dev.ingestbench.harness.spec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An {@code --out} checked before anything starts: a directory, or one that can be created. A file
 * in its place once failed a round after its servers had started, with only the path as the error.
 */
public final class OutDirectory {
  private OutDirectory() {}

  /** {@code out} when it is, or can become, a writable directory; otherwise throws saying why. */
  public static Path require(Path out) {
    Path existing = out.toAbsolutePath();
    while (!Files.exists(existing)) {
      existing = existing.getParent(); // the root exists: the walk ends there at the latest
    }
    if (!Files.isDirectory(existing)) {
      throw new IllegalArgumentException(
          "--out "
              + out
              + ": "
              + (existing.equals(out.toAbsolutePath()) ? "it" : existing)
              + " is a file, not a directory; give a directory (it is created when missing)");
    }
    if (!Files.isWritable(existing)) {
      throw new IllegalArgumentException(
          "--out " + out + ": " + existing + " is not writable; give a directory you can write");
    }
    return out;
  }

  /** Deletes {@code path} and everything under it, if it exists. */
  public static void deleteTree(Path path) throws IOException {
    if (!Files.exists(path)) {
      return;
    }
    try (java.util.stream.Stream<Path> tree = Files.walk(path)) {
      for (Path p : tree.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
