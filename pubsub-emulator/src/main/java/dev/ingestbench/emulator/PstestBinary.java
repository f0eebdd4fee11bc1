package dev.ingestbench.emulator;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
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
 * unchanged one never is; the directory is the user's own (0700), a build holds a file lock, and a
 * binary whose hash is not the one recorded at its build is built again. {@code
 * INGESTBENCH_PSTEST_BINARY} points at a prebuilt binary instead.
 *
 * <p>The build vendors the modules into its cache directory and patches pstest's vendored copy
 * ({@link PstestPatch}: how long an untaken message is kept, how often the messages are swept, and
 * a queue that Pull takes the available messages from); the module cache stays as downloaded.
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
    return locate(cacheRoot());
  }

  /** The binary in (or built into) the cache under {@code cacheRoot}. */
  static synchronized Path locate(Path cacheRoot) throws IOException {
    byte[][] sources = readSources();
    Path root = privateDirectory(cacheRoot);
    Path dir = privateDirectory(root.resolve("pstest-" + hash(sources)));
    Path binary = dir.resolve("pstest-server");
    // One build at a time across processes too: two rounds started together share the cache.
    try (FileChannel lockFile =
            FileChannel.open(
                dir.resolve("build.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = lockFile.lock()) {
      if (Files.isExecutable(binary) && builtHere(binary)) {
        return binary;
      }
      if (Files.exists(binary)) {
        LOG.warn(
            "{} does not match the hash recorded when it was built: building it again", binary);
      }
      for (int i = 0; i < SOURCES.size(); i++) {
        Files.write(dir.resolve(SOURCES.get(i)), sources[i]);
      }
      vendorPatched(dir);
      build(dir, binary);
      Files.writeString(hashFile(binary), sha256(binary), StandardCharsets.UTF_8);
      return binary;
    }
  }

  /**
   * The cache holds an executable this tool runs: it must be the user's own and closed to others
   * (0700; a directory created here is made so), and a binary is used only if its SHA-256 is the
   * one recorded when it was built here.
   */
  static Path privateDirectory(Path dir) throws IOException {
    boolean posix = dir.getFileSystem().supportedFileAttributeViews().contains("posix");
    if (!Files.isDirectory(dir)) {
      if (posix) {
        Files.createDirectories(
            dir,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      } else {
        Files.createDirectories(dir);
      }
    }
    if (posix) {
      String owner = Files.getOwner(dir).getName();
      if (!owner.equals(System.getProperty("user.name"))) {
        throw new IOException(
            "the cache directory "
                + dir
                + " belongs to "
                + owner
                + ", not to "
                + System.getProperty("user.name")
                + ": set "
                + CACHE_ENV
                + " to a directory of your own");
      }
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    }
    return dir;
  }

  private static boolean builtHere(Path binary) throws IOException {
    Path recorded = hashFile(binary);
    return Files.exists(recorded)
        && Files.readString(recorded, StandardCharsets.UTF_8).trim().equals(sha256(binary));
  }

  private static Path hashFile(Path binary) {
    return binary.resolveSibling(binary.getFileName() + ".sha256");
  }

  private static String sha256(Path file) throws IOException {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      try (InputStream in = Files.newInputStream(file)) {
        byte[] buffer = new byte[1 << 16];
        for (int n; (n = in.read(buffer)) > 0; ) {
          digest.update(buffer, 0, n);
        }
      }
      return HexFormat.of().formatHex(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Vendors the emulator's modules into {@code dir/vendor} and patches pstest's copy there ({@link
   * PstestPatch}). (The module cache itself must not be changed, and {@code go build -overlay}
   * refuses files beneath it.)
   */
  private static void vendorPatched(Path dir) throws IOException {
    run(dir, List.of("go", "mod", "vendor"), "'go mod vendor' of the Pub/Sub emulator");
    PstestPatch.apply(dir.resolve("vendor/cloud.google.com/go/pubsub/v2/pstest"));
  }

  /** Runs {@code command} in {@code dir}; its output, or an exception naming {@code what}. */
  private static String run(Path dir, List<String> command, String what) throws IOException {
    ProcessBuilder builder =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
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
        throw new IOException(what + " failed in " + dir + ":\n" + output);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while building the Pub/Sub emulator", e);
    }
    return output;
  }

  private static void build(Path dir, Path binary) throws IOException {
    LOG.info("Building the Pub/Sub emulator (pstest) in {}; the first build takes a minute", dir);
    Path partial = dir.resolve("pstest-server.partial");
    run(
        dir,
        List.of("go", "build", "-mod=vendor", "-o", partial.toString(), "."),
        "'go build' of the Pub/Sub emulator");
    // Rename last so a concurrent or interrupted build never leaves a half-written binary in place.
    Files.move(
        partial, binary, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
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
      // The patch is part of what is built: a changed patch builds again.
      digest.update(PstestPatch.fingerprint().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest.digest()).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
