package dev.ingestbench.harness.process;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A child process a test scripts instead of starting a JVM: it prints the lines it is given (at
 * once, or later: {@link #print}), runs until its standard input closes (then does what its script
 * says) or until the test ends it, and dies at a kill with 137 as a SIGKILLed process does.
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

  /** What it prints, a line at a time, until {@link #END} (its exit). */
  private final BlockingQueue<byte[]> output = new LinkedBlockingQueue<>();

  private static final byte[] END = new byte[0];

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
    lines.forEach(this::print);
    exit.whenComplete((code, failure) -> output.add(END));
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

  /** Prints {@code line} now (nothing once it has exited). */
  public void print(String line) {
    output.add((line + "\n").getBytes(StandardCharsets.UTF_8));
  }

  /** Its lines as they are printed; its output ends when it exits. */
  @Override
  public InputStream getInputStream() {
    return new InputStream() {
      private byte[] chunk = new byte[0];
      private int next;
      private boolean ended;

      /** False at its end; else {@link #chunk} has a byte left, waiting for one if need be. */
      private boolean more() {
        while (!ended && next == chunk.length) {
          try {
            byte[] c = output.take();
            if (c == END) {
              ended = true;
            } else {
              chunk = c;
              next = 0;
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ended = true;
          }
        }
        return !ended || next < chunk.length;
      }

      @Override
      public int read() {
        return more() ? chunk[next++] & 0xff : -1;
      }

      /** What has been printed, without waiting for more once something was read. */
      @Override
      public int read(byte[] b, int off, int len) {
        if (len == 0) {
          return 0;
        }
        if (!more()) {
          return -1;
        }
        int n = Math.min(len, chunk.length - next);
        System.arraycopy(chunk, next, b, off, n);
        next += n;
        return n;
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
