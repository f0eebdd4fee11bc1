package dev.ingestbench.contracts;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes a text file whole or not at all: into a {@code .partial} sibling first, then renamed over
 * it, so a process killed while writing (a run stopped during its servers' shutdown) never leaves
 * an empty or half file for a later report to choke on ({@link RunJson#write} writes JSON through
 * it).
 */
public final class WholeFile {
  /** What writes the file's text. */
  public interface Body {
    void write(Writer out) throws IOException;
  }

  private WholeFile() {}

  public static void write(Path file, Body body) throws IOException {
    Path target = file.toAbsolutePath();
    Path parent = target.getParent();
    Files.createDirectories(parent);
    Path partial = parent.resolve(target.getFileName() + ".partial");
    try (Writer out = Files.newBufferedWriter(partial, StandardCharsets.UTF_8)) {
      body.write(out);
    }
    try {
      Files.move(
          partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
