package dev.ingestbench.harness.process;

import dev.ingestbench.contracts.ChildJavaOptions;
import dev.ingestbench.contracts.ConsumerProgress;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.Secrets;
import dev.ingestbench.contracts.StopMode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A pipeline in a JVM of its own, on this JVM's classpath, with a capped heap. Its output is shown
 * with a prefix (so progress stays visible) and kept in a log file in the round directory.
 *
 * <p>Separate JVMs keep each process's CPU time its own: the consumer's rows per CPU-second must
 * not include the publisher's work.
 */
public final class ChildJvm implements AutoCloseable, ConsumerKill.Killable {
  private static final int TAIL_LINES = 15;

  /**
   * A stand-in server's JIT: only code run tens of thousands of times (what each row runs) is
   * compiled by C2, the rest stays with C1. Over a whole round the BigQuery emulator spent ~40% of
   * its CPU in the C2 compiler (async-profiler, a 1,500,000-row round), much of it in the few
   * seconds of a default round's steady window, where it counted against the pipeline as the
   * harness's share. Measured A/B on the 2-vCPU machine, 2026-11-29: default round, 3 triples,
   * harness share 16.5-17.3% with HotSpot's thresholds, 12.1-15.5% with these (C1 alone
   * 13.3-15.4%); a 1,500,000-row drain, the emulator's CPU per steady second 0.076 against 0.083
   * (C1 alone 0.104: its slower code costs more than C2's compiling once rows flow for a minute).
   */
  private static final List<String> SERVER_JIT =
      List.of(
          "-XX:Tier4InvocationThreshold=50000",
          "-XX:Tier4MinInvocationThreshold=6000",
          "-XX:Tier4CompileThreshold=150000",
          "-XX:Tier4BackEdgeThreshold=400000");

  /** Every child not yet closed, for {@link #awaitAllStopped} on Ctrl-C. */
  private static final Set<ChildJvm> RUNNING = ConcurrentHashMap.newKeySet();

  private final String name;

  /** Where its output goes: named when it fails. */
  private final Path log;

  private final Process process;
  private final Thread pump;

  /** The last lines it printed, for an error that says why it died. */
  private final ArrayDeque<String> tail;

  /** Stops the child if this JVM is stopped (Ctrl-C, SIGTERM) before {@link #close} ran. */
  private final Thread stopOnExit;

  private ChildJvm(String name, Path log, Process process, Thread pump, ArrayDeque<String> tail) {
    this.name = name;
    this.log = log;
    this.process = process;
    this.pump = pump;
    this.tail = tail;
    this.stopOnExit = new Thread(this::stopAndWait, name + "-stop-on-exit");
    try {
      Runtime.getRuntime().addShutdownHook(stopOnExit);
    } catch (IllegalStateException shuttingDown) {
      // Started while this JVM is being stopped (Ctrl-C between a check and the start): no hook
      // would
      // ever stop it, so it is stopped now rather than left running on its own.
      process.destroyForcibly();
      throw new IllegalStateException(
          name + " was started while this process is being stopped; it was killed", shuttingDown);
    }
    RUNNING.add(this);
  }

  /**
   * Waits until every child this JVM started has exited, as their shutdown hooks stop them (SIGKILL
   * after 10 s), so a hook that runs beside those can tidy up after them.
   */
  public static void awaitAllStopped() {
    for (ChildJvm child : RUNNING) {
      try {
        child.process.onExit().get(15, TimeUnit.SECONDS);
      } catch (Exception e) {
        // still going after its SIGKILL, or interrupted: nothing more to wait for
      }
    }
  }

  /**
   * Starts {@code mainClass} in a child JVM, launched by {@code launcher} (a test's scripted one).
   */
  public static ChildJvm start(
      ProcessLauncher launcher,
      String name,
      String heap,
      String mainClass,
      List<String> args,
      Path log)
      throws IOException {
    return start(
        launcher, name, heap, List.of(), mainClass, args, log, progress -> {}, line -> {}, false);
  }

  /**
   * Starts a consumer with its standard input kept open: run with {@code --stopOnStdinEof=true},
   * {@link #closeStdin} asks it to stop cleanly (write its results) whenever the caller decides, as
   * a scenario stage ends. {@code progress} receives every {@link ConsumerProgress} line it prints
   * (those lines are neither shown nor logged).
   */
  public static ChildJvm startStoppable(
      ProcessLauncher launcher,
      String name,
      String heap,
      String mainClass,
      List<String> args,
      Path log,
      Consumer<ConsumerProgress> progress)
      throws IOException {
    return start(launcher, name, heap, List.of(), mainClass, args, log, progress, line -> {}, true);
  }

  /**
   * Starts a server that runs until its stdin closes ({@link #closeStdin}); {@code lines} sees
   * every line it prints, so the caller can wait for the one that says where it listens.
   */
  public static ChildJvm startServer(
      String name,
      String heap,
      String mainClass,
      List<String> args,
      Path log,
      Consumer<String> lines)
      throws IOException {
    return start(
        ProcessLauncher.SYSTEM,
        name,
        heap,
        SERVER_JIT,
        mainClass,
        args,
        log,
        progress -> {},
        lines,
        true);
  }

  private static ChildJvm start(
      ProcessLauncher launcher,
      String name,
      String heap,
      List<String> jvmOptions,
      String mainClass,
      List<String> args,
      Path log,
      Consumer<ConsumerProgress> progress,
      Consumer<String> lines,
      boolean keepStdinOpen)
      throws IOException {
    Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.add("-Xmx" + heap);
    command.add("-XX:+UseParallelGC");
    command.addAll(jvmOptions);
    command.addAll(ChildJavaOptions.fromEnvironment()); // last: the user's options win
    String classpath = System.getProperty("java.class.path");
    Optional<ClassDataSharing.Launch> sharing =
        ClassDataSharing.fromEnvironment()
            .map(cds -> cds.launch(ClassDataSharing.kind(mainClass, args), classpath));
    sharing.ifPresent(launch -> command.addAll(launch.options()));
    command.add("-cp");
    command.add(sharing.map(ClassDataSharing.Launch::classpath).orElse(classpath));
    command.add(mainClass);
    command.addAll(args);
    Process process = launcher.launch(command);
    sharing
        .map(ClassDataSharing.Launch::onExit)
        .ifPresent(
            onExit -> process.onExit().thenAccept(ended -> onExit.accept(ended.exitValue())));
    if (!keepStdinOpen) {
      process.getOutputStream().close();
    }
    PrintWriter logWriter =
        new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true);
    logWriter.println(
        "# "
            + String.join(" ", command.subList(0, 2))
            + " ... "
            + mainClass
            + " "
            + String.join(" ", Secrets.redact(args)));
    ArrayDeque<String> tail = new ArrayDeque<>();
    RepeatedWarnings repeated = new RepeatedWarnings(log.getFileName().toString());
    Thread pump =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                  if (ConsumerProgress.isProgressLine(line)) {
                    ConsumerProgress.parse(line).ifPresent(progress);
                    continue;
                  }
                  lines.accept(line);
                  logWriter.println(line);
                  synchronized (tail) {
                    if (tail.size() == TAIL_LINES) {
                      tail.removeFirst();
                    }
                    tail.addLast(line);
                  }
                  if (isWorthShowing(line)) {
                    for (String shown : repeated.admit(line, System.nanoTime())) {
                      System.out.println("[" + name + "] " + shown);
                    }
                  }
                }
                for (String heldBack : repeated.flush()) {
                  System.out.println("[" + name + "] " + heldBack);
                }
              } catch (IOException e) {
                if (!jvmIsExiting()) {
                  System.err.println("[" + name + "] output lost: " + e.getMessage());
                }
              } finally {
                logWriter.close();
              }
            },
            name + "-output");
    pump.setDaemon(true);
    pump.start();
    return new ChildJvm(name, log, process, pump, tail);
  }

  /** Progress and problems go to the console; stack-trace lines stay in the log file. */
  private static boolean isWorthShowing(String line) {
    String trimmed = line.stripLeading();
    return !trimmed.startsWith("at ") && !trimmed.startsWith("... ") && !trimmed.isEmpty();
  }

  /**
   * True while this JVM exits (Ctrl-C, SIGTERM): its hooks are stopping every child, so a child
   * that ends or a stream that closes is expected, not news.
   */
  public static boolean jvmIsExiting() {
    Thread probe = new Thread(() -> {});
    try {
      Runtime.getRuntime().addShutdownHook(probe);
      Runtime.getRuntime().removeShutdownHook(probe);
      return false;
    } catch (IllegalStateException e) {
      return true;
    }
  }

  /** Waits up to {@code seconds}; returns the exit code, or empty on timeout. */
  public OptionalInt waitFor(long seconds) throws InterruptedException {
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      return OptionalInt.empty();
    }
    pump.join(5_000);
    return OptionalInt.of(process.exitValue());
  }

  /**
   * Waits up to {@code seconds} for a child that must succeed (a publisher); throws naming it and
   * its log when it fails or does not finish.
   */
  public void requireSuccess(long seconds) throws IOException, InterruptedException {
    OptionalInt exit = waitFor(seconds);
    if (exit.isEmpty()) {
      close();
      throw new IOException("the " + name + " did not finish within " + seconds + " s");
    }
    if (exit.getAsInt() != ExitCodes.OK) {
      throw new IOException("the " + name + " failed (exit " + exit.getAsInt() + "); see " + log);
    }
  }

  @Override
  public String name() {
    return name;
  }

  /**
   * SIGKILL, as the kernel's out-of-memory killer or a lost machine: no hook runs, nothing is
   * written.
   */
  @Override
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
    pump.join(5_000);
    close(); // nothing left to stop: drops its shutdown hook
  }

  /** Closes the child's stdin: a server started by {@link #startServer} then finishes and exits. */
  public void closeStdin() throws IOException {
    process.getOutputStream().close();
  }

  /**
   * Asks a consumer started by {@link #startStoppable} to stop as {@code mode} says (its {@code
   * --stopWith} is only the default): the mode's name on a line, then the end of its stdin.
   */
  public void stop(StopMode mode) throws IOException {
    OutputStream in = process.getOutputStream();
    try {
      in.write((mode.flag() + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
    } catch (IOException ended) {
      // It ended by itself meanwhile (a broken pipe): its exit code says how, as after a close.
    }
    try {
      in.close();
    } catch (IOException ended) {
      // The same broken pipe, as the unwritten line is flushed again.
    }
  }

  public long pid() {
    return process.pid();
  }

  @Override
  public boolean isAlive() {
    return process.isAlive();
  }

  /** Its exit code once it has exited. */
  public OptionalInt exitCode() {
    return process.isAlive() ? OptionalInt.empty() : OptionalInt.of(process.exitValue());
  }

  /** The last lines it printed (progress lines excluded). */
  public String lastLines() {
    synchronized (tail) {
      return String.join(System.lineSeparator(), tail);
    }
  }

  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(stopOnExit);
    } catch (IllegalStateException shuttingDown) {
      // The hook is running or about to: it stops the child.
    }
    stopAndWait();
    RUNNING.remove(this);
  }

  /**
   * SIGTERM, then up to 10 s for the child to write its partial results and exit (this JVM's own
   * exit waits for it, so nothing writes into the round directory afterwards), then SIGKILL.
   */
  private void stopAndWait() {
    if (process.isAlive()) {
      process.destroy();
      try {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}
