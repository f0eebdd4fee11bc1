package dev.ingestbench.emulator;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds or builds the {@code pstest-server} binary.
 *
 * <p>The Go sources ship inside this module's jar. They are built once with the local Go toolchain
 * into a cache directory named after a hash of the sources, so an edited emulator is rebuilt and an
 * unchanged one never is. {@code INGESTBENCH_PSTEST_BINARY} points at a prebuilt binary instead.
 */
public final class PstestBinary {
  private static final Logger LOG = LoggerFactory.getLogger(PstestBinary.class);
  private static final List<String> SOURCES = List.of("main.go", "go.mod", "go.sum");
  static final String BINARY_ENV = "INGESTBENCH_PSTEST_BINARY";
  static final String CACHE_ENV = "INGESTBENCH_CACHE";

  private PstestBinary() {}

  /** The path of a runnable emulator binary, building it first if needed. */
  public static synchronized Path locate() throws IOException {
    String override = System.getenv(BINARY_ENV);
    if (override != null && !override.isBlank()) {
      Path binary = Paths.get(override);
      if (!Files.isExecutable(binary)) {
        throw new IOException(
            BINARY_ENV + "=" + override + " is not an executable file; unset it to build pstest");
      }
      return binary;
    }
    byte[][] sources = readSources();
    Path dir = cacheRoot().resolve("pstest-" + hash(sources));
    Path binary = dir.resolve("pstest-server");
    if (Files.isExecutable(binary)) {
      return binary;
    }
    Files.createDirectories(dir);
    for (int i = 0; i < SOURCES.size(); i++) {
      Files.write(dir.resolve(SOURCES.get(i)), sources[i]);
    }
    build(dir, binary);
    return binary;
  }

  private static void build(Path dir, Path binary) throws IOException {
    LOG.info("Building the Pub/Sub emulator (pstest) in {}; the first build takes a minute", dir);
    Path partial = dir.resolve("pstest-server.partial");
    ProcessBuilder builder =
        new ProcessBuilder("go", "build", "-o", partial.toString(), ".")
            .directory(dir.toFile())
            .redirectErrorStream(true);
    // Never let go fetch a newer toolchain: only the module proxy is reachable on build machines.
    builder.environment().putIfAbsent("GOTOOLCHAIN", "local");
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new IOException(
          "cannot run 'go' to build the Pub/Sub emulator: install Go 1.26 or newer (pstest"
              + " v2.8.0 needs it) and put it on PATH, or set "
              + BINARY_ENV
              + " to a prebuilt pstest-server",
          e);
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
        throw new IOException("'go build' of the Pub/Sub emulator failed in " + dir + ":\n" + output);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while building the Pub/Sub emulator", e);
    }
    // Rename last so a concurrent or interrupted build never leaves a half-written binary in place.
    Files.move(partial, binary, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  static Path cacheRoot() {
    String configured = System.getenv(CACHE_ENV);
    if (configured != null && !configured.isBlank()) {
      return Paths.get(configured);
    }
    return Paths.get(System.getProperty("user.home"), ".cache", "ingestbench");
  }

  private static byte[][] readSources() {
    byte[][] contents = new byte[SOURCES.size()][];
    for (int i = 0; i < SOURCES.size(); i++) {
      String resource = "/pstest/" + SOURCES.get(i);
      try (InputStream in = PstestBinary.class.getResourceAsStream(resource)) {
        if (in == null) {
          throw new IllegalStateException(resource + " is missing from the emulator jar");
        }
        contents[i] = in.readAllBytes();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return contents;
  }

  private static String hash(byte[][] sources) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      for (byte[] source : sources) {
        digest.update(source);
      }
      return HexFormat.of().formatHex(digest.digest()).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
