package dev.ingestbench.bigquery;

import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.MainErrors;
import java.io.IOException;
import java.io.InputStream;
import java.net.BindException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.checkerframework.checker.nullness.qual.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ingestbench bigquery-emulator}: runs the local BigQuery until Ctrl-C, printing where it
 * listens and the consumer flags that point at it. A round runs it as a child process with {@code
 * --exit-on-stdin-eof}, reads its {@link #READY_PREFIX} line, and stops it by closing stdin.
 */
@Command(
    name = "bigquery-emulator",
    mixinStandardHelpOptions = true,
    description = {
      "Run the local BigQuery: the Storage Write API (gRPC, plaintext) and the tables REST API,"
          + " with BigQuery's limits, verifying every row.",
      "Any official client on a plaintext channel can append to it; Ctrl-C stops it (and writes"
          + " --out)."
    })
public final class BigQueryEmulatorCommand implements Callable<Integer> {
  /** The machine-readable line a parent process waits for. */
  public static final String READY_PREFIX = "ingestbench-bigquery-emulator ready";

  @Option(
      names = "--port",
      description =
          "Storage Write API (gRPC) port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int port = 9060;

  @Option(
      names = "--rest-port",
      description =
          "REST API port (tables, status); 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int restPort = 9050;

  @Mixin EmulatorLimitOptions limits = new EmulatorLimitOptions();

  @Option(
      names = "--out",
      description =
          "Directory for the write timeline, connections and status, written when the server stops.")
  @Nullable Path out;

  @Option(
      names = "--published-messages",
      paramLabel = "N",
      defaultValue = "0",
      description =
          "The publisher wrote event indexes 0..N-1: rows with other indexes are reported as foreign, not counted as written (default: 0, not known).")
  long publishedMessages;

  @Option(
      names = "--content-seed",
      paramLabel = "SEED",
      description =
          "The publishers' --seed: every visible row's content is checked against the event its index must"
              + " produce, and rows that differ are counted as mismatched (default: not checked).")
  @Nullable Long contentSeed;

  @Option(
      names = "--run-id",
      paramLabel = "ID",
      description =
          "The round this server serves: written into its status and files, so an analysis can tell them from another round's.")
  @Nullable String runId;

  @Option(
      names = "--exit-on-stdin-eof",
      hidden = true,
      description = "Stop when stdin closes (how a round stops its child).")
  boolean exitOnStdinEof;

  /** The settings these flags ask for, checked; bad values throw naming the flag and the fix. */
  public EmulatorSettings settings() {
    return limits
        .applyTo(
            new EmulatorSettings(
                "127.0.0.1",
                port,
                restPort,
                0,
                1,
                1,
                1,
                Faults.NONE,
                EmulatorSettings.THROTTLE,
                ApiLimits.DEFAULTS,
                EmulatorSettings.defaults().cellQuota()))
        .validate();
  }

  /**
   * Parses and checks {@code args} as the command would, starting nothing (how a round validates).
   */
  public static EmulatorSettings settingsOf(List<String> args) {
    BigQueryEmulatorCommand command = new BigQueryEmulatorCommand();
    try {
      new CommandLine(command).parseArgs(args.toArray(new String[0]));
    } catch (CommandLine.ParameterException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    return command.settings();
  }

  @Override
  public Integer call() throws Exception {
    BigQueryEmulator server = startOrExplain();
    server.runId(runId);
    server.publishedMessages(publishedMessages);
    if (contentSeed != null) {
      server.contentSeed(contentSeed);
      RowCheckWarmUp.startFor(contentSeed, publishedMessages);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Thread stop = new Thread(() -> stop(server, stopped), "bigquery-emulator-stop");
    Runtime.getRuntime().addShutdownHook(stop);
    printReady(server);
    if (exitOnStdinEof) {
      drain(System.in);
      // The hook stays: a SIGTERM arriving now must wait while this writes the files, not halt the
      // JVM halfway (stop runs once; a second caller waits for the first).
      stop(server, stopped);
      return 0;
    }
    stopped.await();
    return 0;
  }

  /** A port in use is the usual failure: say which flags pick others. */
  private BigQueryEmulator startOrExplain() throws IOException {
    try {
      return BigQueryEmulator.start(settings());
    } catch (IOException e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        // Netty's native transport reports it as its own exception, with the OS's words.
        if (t instanceof BindException
            || (t.getMessage() != null && t.getMessage().contains("already in use"))) {
          throw new IOException(
              e.getMessage()
                  + ": --port "
                  + port
                  + " or --rest-port "
                  + restPort
                  + " is in use (another bigquery-emulator?); stop that process or pick other ports (0 = any free one)",
              e);
        }
      }
      throw e;
    }
  }

  private synchronized void stop(BigQueryEmulator server, CountDownLatch stopped) {
    if (stopped.getCount() == 0) {
      return;
    }
    try {
      if (out != null) {
        server.writeFiles(out);
        System.out.println(
            "bigquery-emulator: wrote the timeline, connections and status to " + out);
      }
    } catch (IOException e) {
      System.err.println("bigquery-emulator: could not write " + out + ": " + e.getMessage());
    } finally {
      server.close();
      stopped.countDown();
    }
  }

  private void printReady(BigQueryEmulator server) {
    EmulatorSettings s = server.settings();
    System.out.println("BigQuery emulator listening on loopback:");
    System.out.println("  Storage Write API (gRPC, plaintext): " + server.grpcAddress());
    System.out.println("  REST API (datasets, tables):         " + server.restUrl());
    System.out.println(
        "  Status (JSON):                       " + server.restUrl() + EmulatorStatus.PATH);
    System.out.println(
        String.format(
            Locale.ROOT,
            "Limits: quota %s MB/s per %.0f s window%s, %d connections, %,d-byte requests.",
            s.quotaMbPerSecond() > 0
                ? String.format(Locale.ROOT, "%.2f", s.quotaMbPerSecond())
                : "no",
            s.quotaWindowSeconds(),
            EmulatorSettings.REJECT.equals(s.quotaMode())
                ? " (spent: appends refused)"
                : EmulatorSettings.TWO_TIER.equals(s.quotaMode())
                    ? String.format(
                        Locale.ROOT,
                        " (regional), under it a cell quota of %.2f MB/s per %.0f s window; spent:"
                            + " appends refused",
                        s.cellQuota().mbPerSecond(),
                        s.cellQuota().windowSeconds())
                    : "",
            s.maxConnections(),
            s.maxRequestBytes()));
    System.out.println("Point a consumer at it with:");
    System.out.println(
        "  --storageWriteEndpoint="
            + server.grpcAddress()
            + " --bigQueryEndpoint="
            + server.restUrl());
    System.out.println(
        READY_PREFIX + " grpc=" + server.grpcAddress() + " rest=" + server.restUrl());
    System.out.flush();
  }

  private static void drain(InputStream in) throws IOException {
    byte[] buffer = new byte[256];
    while (in.read(buffer) >= 0) {
      // Wait for the parent to close stdin.
    }
  }

  /** The command line with ingestbench's error handling: one line and an exit code. */
  public static CommandLine commandLine() {
    return new CommandLine(new BigQueryEmulatorCommand())
        .setExecutionExceptionHandler(
            (e, cmd, parse) -> MainErrors.report(cmd.getCommandName(), e, cmd.getErr()));
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }
}
