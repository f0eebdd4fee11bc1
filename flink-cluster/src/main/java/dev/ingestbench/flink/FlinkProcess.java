package dev.ingestbench.flink;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One JVM of the cluster (the JobManager or a TaskManager): its output copied to a log file, its
 * last lines kept for an error that says why it died, stopped by closing its standard input.
 */
public final class FlinkProcess {
  private static final int TAIL_LINES = 20;

  private final String name;
  private final String role;
  private final Process process;
  private final Path log;
  private final Deque<String> tail = new ArrayDeque<>();

  /**
   * The first line that names an error and the last root cause of a stack trace: after them, a
   * failing JVM prints mostly its shutdown.
   */
  private volatile String firstError;

  private volatile String lastCause;

  private FlinkProcess(String name, String role, Process process, Path log) {
    this.name = name;
    this.role = role;
    this.process = process;
    this.log = log;
  }

  static FlinkProcess start(
      String name, String role, List<String> jvmOptions, List<String> flinkArgs, Path log)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add(FlinkProcessMain.class.getName());
    command.add(role);
    command.addAll(flinkArgs);
    Files.createDirectories(log.toAbsolutePath().getParent());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    FlinkProcess started = new FlinkProcess(name, role, process, log);
    started.copyOutput();
    return started;
  }

  /** {@code jobmanager}, {@code taskmanager-1}, ... */
  public String name() {
    return name;
  }

  /** {@code jobmanager} or {@code taskmanager}. */
  public String role() {
    return role;
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public Path log() {
    return log;
  }

  /** Exit code, once it exited. */
  int exitValue() {
    return process.exitValue();
  }

  /** Its first error line (if any), then its last output lines. */
  public String lastLines() {
    synchronized (tail) {
      String last = String.join(System.lineSeparator(), tail);
      return firstError == null || tail.contains(firstError)
          ? last
          : "first error: "
              + firstError
              + System.lineSeparator()
              + "..."
              + System.lineSeparator()
              + last;
    }
  }

  /**
   * Stops it as its parent's end would (standard input closed), cleanly within 30 s, or kills it.
   */
  void stop() {
    try {
      process.getOutputStream().close();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (IOException | InterruptedException e) {
      process.destroyForcibly();
    }
  }

  /** SIGKILL, as a machine that fails: nothing of it runs a shutdown hook. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  private void copyOutput() throws IOException {
    Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8);
    Thread copier =
        new Thread(
            () -> {
              try (out;
                  BufferedReader in =
                      new BufferedReader(
                          new InputStreamReader(
                              process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                  out.write(line);
                  out.write(System.lineSeparator());
                  out.flush();
                  if (line.startsWith("Caused by: ")) {
                    lastCause = line;
                  }
                  if (firstError == null
                      && (line.contains(" ERROR ") || line.contains("Exception: "))) {
                    firstError = line;
                  }
                  synchronized (tail) {
                    tail.addLast(line);
                    if (tail.size() > TAIL_LINES) {
                      tail.removeFirst();
                    }
                  }
                }
              } catch (IOException e) {
                // its output ended
              }
            },
            name + "-output");
    copier.setDaemon(true);
    copier.start();
  }
}
