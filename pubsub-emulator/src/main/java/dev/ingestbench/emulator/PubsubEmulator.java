package dev.ingestbench.emulator;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running local Pub/Sub emulator (Google's {@code pstest} fake) on a free loopback port.
 *
 * <p>It speaks the real Pub/Sub gRPC API in plaintext. pstest keeps every message in memory and
 * slows as its backlog grows, so a round starts one emulator of its own and closes it at the end.
 */
public final class PubsubEmulator implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PubsubEmulator.class);
  private static final String READY_PREFIX = "listening on ";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  private final Process process;
  private final String hostAndPort;

  private PubsubEmulator(Process process, String hostAndPort) {
    this.process = process;
    this.hostAndPort = hostAndPort;
  }

  /**
   * Builds the emulator if needed and starts it on a free port of 127.0.0.1; it keeps undelivered
   * messages a week (pstest's own 10 minutes would lose a slow drain's backlog).
   */
  public static PubsubEmulator start() throws IOException {
    return start(List.of());
  }

  /**
   * The same, keeping a message no subscriber has taken for {@code retention} (a test's way to see
   * messages expire).
   */
  public static PubsubEmulator start(Duration retention) throws IOException {
    return start(List.of("-retention", retention.toMillis() + "ms"));
  }

  private static PubsubEmulator start(List<String> flags) throws IOException {
    Path binary = PstestBinary.locate();
    List<String> command =
        new ArrayList<>(List.of(binary.toString(), "-host", "127.0.0.1", "-port", "0"));
    command.addAll(flags);
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
    Process process = builder.start();
    // The child exits when its stdin closes: if this JVM dies, no emulator is left behind.
    BufferedReader stdout =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> readReadyLine(stdout));
    try {
      String hostAndPort = ready.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      LOG.info("Pub/Sub emulator (pstest) listening on {}", hostAndPort);
      return new PubsubEmulator(process, hostAndPort);
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while starting the Pub/Sub emulator", e);
    } catch (ExecutionException | TimeoutException e) {
      process.destroyForcibly();
      throw new IOException(
          "the Pub/Sub emulator at "
              + binary
              + " did not report its port within "
              + START_TIMEOUT.toSeconds()
              + " s; run it by hand to see why",
          e);
    }
  }

  private static String readReadyLine(BufferedReader stdout) {
    try {
      String line;
      while ((line = stdout.readLine()) != null) {
        if (line.startsWith(READY_PREFIX)) {
          return line.substring(READY_PREFIX.length()).trim();
        }
      }
      throw new IllegalStateException("the emulator exited before it was ready");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code host:port}, the value of {@code PUBSUB_EMULATOR_HOST} for clients. */
  public String hostAndPort() {
    return hostAndPort;
  }

  /** The emulator's process id, for CPU accounting. */
  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** Its exit code, or "none" while it runs. */
  public String exitCode() {
    return process.isAlive() ? "none" : Integer.toString(process.exitValue());
  }

  /** Blocks until the emulator exits (for the standalone {@code ingestbench emulator} command). */
  public int waitFor() throws InterruptedException {
    return process.waitFor();
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
