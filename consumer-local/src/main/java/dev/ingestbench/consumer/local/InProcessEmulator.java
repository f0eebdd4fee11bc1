package dev.ingestbench.consumer.local;

import dev.ingestbench.bigquery.BigQueryEmulator;
import dev.ingestbench.bigquery.EmulatorSettings;
import dev.ingestbench.contracts.AccountedIndexes;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.JobRouting;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;

/**
 * {@code --sink=local}: a BigQuery emulator on loopback ports inside the consumer's JVM, with
 * BigQuery's default limits. Rows still travel through the real client and gRPC; only the server
 * shares the process.
 */
public final class InProcessEmulator implements EmulatorView {
  private final BigQueryEmulator server;
  private final String job;

  private InProcessEmulator(BigQueryEmulator server, String job) {
    this.server = server;
    this.job = job;
  }

  /**
   * Starts the emulator and points {@code options}' {@code --bigQueryEndpoint} at it.
   *
   * @param runId the round's id, written into {@code bigquery_emulator.json} as the shared emulator
   *     writes it (a round's analysis refuses a file that names no round); null outside a round
   * @param contentSeed the seed the events were generated with; null when not known (not checked)
   * @param announceIn where to say which port its REST API listens on (a scenario samples it while
   *     the job runs), or null
   */
  public static InProcessEmulator start(
      BigQueryOptions options,
      String job,
      long publishedMessages,
      String runId,
      Long contentSeed,
      Path announceIn)
      throws IOException {
    BigQueryEmulator server = BigQueryEmulator.start(EmulatorSettings.defaults());
    server.publishedMessages(publishedMessages);
    if (contentSeed != null) {
      server.contentSeed(contentSeed); // the events are known: every row's content is checked
    }
    if (runId != null) {
      server.runId(runId);
    }
    options.setBigQueryEndpoint(server.restUrl());
    if (announceIn != null) {
      RunJson.write(
          announceIn.resolve(RunFiles.IN_PROCESS_BIGQUERY),
          Map.of(RunFiles.IN_PROCESS_BIGQUERY_REST, server.restUrl()));
    }
    return new InProcessEmulator(server, job);
  }

  @Override
  public void declareRouting(JobRouting routing) {
    server.declareRouting(job, routing);
  }

  @Override
  public String storageWriteEndpoint() {
    return server.grpcAddress();
  }

  @Override
  public EmulatorStatus.Job job() {
    return server.status().job(job);
  }

  @Override
  public AccountedIndexes accounted() {
    return server.accounted(job);
  }

  @Override
  public void writeFiles(Path dir) throws IOException {
    // Before the status file, whose presence says the job's files are complete.
    RunJson.write(dir.resolve(RunFiles.ACCOUNTED_INDEXES), server.accounted(job));
    server.writeFiles(dir);
  }

  @Override
  public void close() {
    server.close();
  }
}
