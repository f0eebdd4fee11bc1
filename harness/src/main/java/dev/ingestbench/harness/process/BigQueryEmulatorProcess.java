package dev.ingestbench.harness.process;

import dev.ingestbench.bigquery.BigQueryEmulatorCommand;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The round's BigQuery emulator: one JVM shared by every consumer job, so connections, quota and
 * per-table contention are counted across jobs as BigQuery counts them. Stopping it (closing its
 * stdin) makes it write the timeline and connection files into the round's directory.
 */
public final class BigQueryEmulatorProcess implements AutoCloseable {
  private static final String MAIN = "dev.ingestbench.bigquery.BigQueryEmulatorCommand";
  private static final long READY_SECONDS = 60;

  /** Where the emulator listens: the Storage Write API (gRPC) and the REST API. */
  public record Address(String grpc, String rest) {}

  private final ChildJvm jvm;
  private final Address address;

  private BigQueryEmulatorProcess(ChildJvm jvm, Address address) {
    this.jvm = jvm;
    this.address = address;
  }

  public static BigQueryEmulatorProcess start(List<String> args, Path log)
      throws IOException, InterruptedException {
    CompletableFuture<Address> ready = new CompletableFuture<>();
    ChildJvm jvm =
        ChildJvm.startServer(
            "bigquery-emulator",
            "1g",
            MAIN,
            args,
            log,
            line -> {
              if (line.startsWith(BigQueryEmulatorCommand.READY_PREFIX)) {
                String grpc = line.replaceAll(".* grpc=(\\S+).*", "$1");
                String rest = line.replaceAll(".* rest=(\\S+).*", "$1");
                ready.complete(new Address(grpc, rest));
              }
            });
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(READY_SECONDS);
    boolean started = false;
    try {
      // The line that says where it listens, or its exit, whichever comes first.
      while (!ready.isDone()) {
        if (!jvm.isAlive()) {
          throw new IOException(exitedBeforeReady(jvm, log));
        }
        if (System.nanoTime() > deadline) {
          throw new IOException(
              "the BigQuery emulator did not start within " + READY_SECONDS + " s; see " + log);
        }
        Thread.sleep(100);
      }
      started = true;
      return new BigQueryEmulatorProcess(jvm, ready.join());
    } finally {
      if (!started) {
        jvm.close(); // also when interrupted (Ctrl-C) while it starts
      }
    }
  }

  /**
   * A JVM that cannot start (a bad option in INGESTBENCH_CHILD_JAVA_OPTS, too little memory) exits
   * at once: said then, with its last lines, not after the whole wait for its ready line.
   */
  private static String exitedBeforeReady(ChildJvm jvm, Path log) throws InterruptedException {
    OptionalInt exit = jvm.waitFor(5); // and its output read to the end
    return "the BigQuery emulator exited (code "
        + (exit.isPresent() ? exit.getAsInt() : "?")
        + ") before it was ready; see "
        + log
        + ". Its last lines:"
        + System.lineSeparator()
        + jvm.lastLines();
  }

  public Address address() {
    return address;
  }

  public long pid() {
    return jvm.pid();
  }

  /** The emulator's JVM, for a watch that notices it died. */
  public ChildJvm jvm() {
    return jvm;
  }

  /** Stops the emulator and waits while it writes its files. */
  @Override
  public void close() throws IOException, InterruptedException {
    try {
      jvm.closeStdin();
      OptionalInt exit = jvm.waitFor(60);
      if ((exit.isEmpty() || exit.getAsInt() != 0) && !ChildJvm.jvmIsExiting()) {
        System.out.println(
            "[round] the BigQuery emulator did not stop cleanly (exit "
                + (exit.isEmpty() ? "timeout" : exit.getAsInt())
                + "); its files may be missing");
      }
    } finally {
      jvm.close();
    }
  }
}
