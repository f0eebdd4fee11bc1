package dev.ingestbench.harness.staged;

import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.verification.JobCounts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.LongSupplier;

/**
 * What a local segment knows of what its jobs accounted for: while they run (when a stage ends,
 * when a fault may strike) and once they stopped (their verification). A scenario's accounts are
 * the BigQuery emulator's, sampled every second ({@link SampledAccounts}); a round's are each
 * consumer's own result, read once it stopped by itself.
 */
public interface JobAccounts extends AutoCloseable {

  /** Throws when the accounts can no longer be read (the BigQuery emulator stopped answering). */
  default void check() throws IOException {}

  /** What the job has accounted for so far: a fault waits for it to write. */
  long progress(String job);

  /**
   * The job at one tick ({@link StageTarget.JobReading}).
   *
   * @param exit its consumer's exit code once it ended by itself, else empty
   * @param expected the messages it is to read
   * @param log its consumer's log
   */
  StageTarget.JobReading read(String job, OptionalInt exit, long expected, Path log)
      throws Exception;

  /** From now on, samples belong to {@code stage} and these running jobs (their pids). */
  default void follow(String stage, Map<String, LongSupplier> pids) {}

  /** The samples taken so far. */
  default List<ScenarioSample> samples() {
    return List.of();
  }

  /** The job's consumer has stopped. */
  default void stopped(String job) {}

  /**
   * The messages published, as the publishers' results say; null when a publisher left no result
   * (or when {@link #count} reads them itself).
   */
  Long published() throws IOException;

  /**
   * A stopped job's figures, from {@code published} messages (null when not known, then {@code
   * whyUnknown} says why).
   */
  JobCounts count(String stage, String job, boolean exactlyOnce, Long published, String whyUnknown)
      throws Exception;

  /** One sentence on rows appended and never made visible, or null when there are none. */
  default String unfinishedStreams() throws Exception {
    return null;
  }

  @Override
  default void close() throws Exception {}
}
