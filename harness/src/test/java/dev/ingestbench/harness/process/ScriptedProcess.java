package dev.ingestbench.harness.process;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A child process a test scripts instead of starting a JVM: it prints the lines it is given, runs
 * until its standard input closes (then does what its script says) or until the test ends it, and
 * dies at a kill with 137 as a SIGKILLed process does.
 */
public final class ScriptedProcess extends Process {
  /** What it does when its standard input closes, given what was written to it. */
  @FunctionalInterface
  public interface OnStdinClosed {
    /** Its exit code, or -1 to keep running. */
    int exitCode(String written) throws IOException;
  }

  /** Far above any Linux pid_max (2^22), so no sampler ever reads a real process's CPU. */
  private static final AtomicLong PIDS = new AtomicLong(1L << 40);

  private final List<String> command;
  private final long pid = PIDS.incrementAndGet();
  private final CompletableFuture<Integer> exit = new CompletableFuture<>();
  private final OutputStream stdin;

  /** What it prints first, before its output ends at its exit. */
  private final byte[] printed;

  /** Its standard input was closed. */
  private volatile boolean stdinClosed;

  /** The thread that first stopped it with a signal, or null. */
  private volatile String signalledBy;

  public ScriptedProcess(List<String> command, OnStdinClosed script) {
    this(command, script, List.of());
  }

  /** As above, printing {@code lines} at once. */
  public ScriptedProcess(List<String> command, OnStdinClosed script, List<String> lines) {
    this.command = List.copyOf(command);
    this.printed =
        lines.stream()
            .map(line -> line + "\n")
            .reduce("", String::concat)
            .getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream written = new ByteArrayOutputStream();
    this.stdin =
        new OutputStream() {
          private boolean closed;

          @Override
          public void write(int b) {
            written.write(b);
          }

          @Override
          public synchronized void close() throws IOException {
            if (closed) {
              return;
            }
            closed = true;
            stdinClosed = true;
            int code = script.exitCode(written.toString(StandardCharsets.UTF_8));
            if (code >= 0) {
              exit.complete(code);
            }
          }
        };
  }

  /** Its command line, as the launcher got it. */
  public List<String> command() {
    return command;
  }

  /** Whether its standard input was closed (how a consumer is asked to stop cleanly). */
  public boolean stdinClosed() {
    return stdinClosed;
  }

  /** The name of the thread that first sent it SIGTERM or SIGKILL, or null. */
  public String signalledBy() {
    return signalledBy;
  }

  private void signalled() {
    if (signalledBy == null && isAlive()) {
      signalledBy = Thread.currentThread().getName();
    }
  }

  /** Ends it now with {@code code}, as a process that stops by itself. */
  public void exitNow(int code) {
    exit.complete(code);
  }

  @Override
  public OutputStream getOutputStream() {
    return stdin;
  }

  /** Its lines, if any; then its output ends when it exits. */
  @Override
  public InputStream getInputStream() {
    return new InputStream() {
      private int next;

      @Override
      public int read() {
        if (next < printed.length) {
          return printed[next++] & 0xff;
        }
        exit.join();
        return -1;
      }

      /** What is printed at once, without waiting for the rest (the default read waits). */
      @Override
      public int read(byte[] b, int off, int len) {
        if (len == 0) {
          return 0;
        }
        if (next < printed.length) {
          int n = Math.min(len, printed.length - next);
          System.arraycopy(printed, next, b, off, n);
          next += n;
          return n;
        }
        exit.join();
        return -1;
      }
    };
  }

  @Override
  public InputStream getErrorStream() {
    return InputStream.nullInputStream();
  }

  @Override
  public int waitFor() throws InterruptedException {
    try {
      return exit.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
    try {
      exit.get(timeout, unit);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public int exitValue() {
    if (!exit.isDone()) {
      throw new IllegalThreadStateException("still running");
    }
    return exit.join();
  }

  @Override
  public void destroy() {
    signalled();
    exit.complete(143);
  }

  @Override
  public Process destroyForcibly() {
    signalled();
    exit.complete(137);
    return this;
  }

  @Override
  public boolean isAlive() {
    return !exit.isDone();
  }

  @Override
  public long pid() {
    return pid;
  }

  @Override
  public CompletableFuture<Process> onExit() {
    return exit.thenApply(code -> this);
  }
}
