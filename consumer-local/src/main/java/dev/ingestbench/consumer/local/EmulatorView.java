package dev.ingestbench.consumer.local;

import dev.ingestbench.contracts.AccountedIndexes;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.JobRouting;
import java.io.IOException;
import java.nio.file.Path;

/** What a local run sees of the BigQuery emulator it writes to: its own job's verified counts. */
public interface EmulatorView extends AutoCloseable {
  /** The emulator's Storage Write API address (plaintext gRPC). */
  String storageWriteEndpoint();

  /** This consumer's job as the emulator has verified it so far. */
  EmulatorStatus.Job job() throws IOException;

  /** The event indexes this consumer's job has written or dead-lettered so far. */
  AccountedIndexes accounted() throws IOException;

  /** Tells the emulator how this job routes its rows over its tables, before it writes. */
  void declareRouting(JobRouting routing) throws IOException;

  /** The emulator's files for a run directory; only an emulator this run owns writes them. */
  void writeFiles(Path dir) throws IOException;

  @Override
  void close();
}
