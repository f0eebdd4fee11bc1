package dev.ingestbench.harness.stack;

import dev.ingestbench.contracts.ProcessCpuColumns;
import dev.ingestbench.harness.process.BigQueryEmulatorProcess;
import dev.ingestbench.harness.process.ChildJvm;
import dev.ingestbench.harness.process.ProcessCpuSampler;
import dev.ingestbench.harness.process.ServerWatch;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * The BigQuery emulator of a local run, started the same way for a round and a scenario: one JVM
 * shared by every job, its log beside the run's files, its CPU recorded under one process name, and
 * its death ending the run through the {@link ServerWatch}.
 */
public final class LocalSink {
  private LocalSink() {}

  /** Starts the emulator with {@code args}, logging to {@code log}; watched and sampled. */
  public static BigQueryEmulatorProcess start(
      List<String> args, Path log, ProcessCpuSampler cpu, ServerWatch watch, Consumer<String> say)
      throws IOException, InterruptedException {
    BigQueryEmulatorProcess server = BigQueryEmulatorProcess.start(args, log);
    try {
      BigQueryEmulatorProcess.Address address = server.address();
      say.accept(
          "BigQuery emulator: Storage Write API on "
              + address.grpc()
              + ", REST on "
              + address.rest());
      cpu.watch(ProcessCpuColumns.BIGQUERY_EMULATOR, server.pid());
      ChildJvm jvm = server.jvm();
      watch.watch(
          new ServerWatch.Server(
              "BigQuery emulator",
              jvm::isAlive,
              () ->
                  jvm.lastLines()
                      + System.lineSeparator()
                      + "(exit code "
                      + jvm.exitCode().orElse(-1)
                      + "; all of it in "
                      + log
                      + ")"));
    } catch (RuntimeException e) {
      try {
        server.close();
      } catch (IOException | InterruptedException | RuntimeException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
    return server;
  }
}
