package dev.ingestbench.contracts;

import java.util.List;

/**
 * {@code consumer_result.json}: what a local consumer run did, verified row by row by the local
 * BigQuery.
 *
 * @param writeMethod {@code exactly-once} or {@code at-least-once}, whatever spelling was passed
 * @param expected messages the run waited for (0: until the source ended or the timeout)
 * @param rowsWritten rows visible in the data tables, duplicates included
 * @param distinctMessageIds distinct event indexes among them
 * @param duplicates rows whose message was already visible: the same message id written twice by
 *     the sink (or no id to tell); exactly-once fails on these
 * @param unindexedRows rows without an event index (not checkable)
 * @param deadLettered rows in the dead-letter tables
 * @param accountedFor distinct messages written or dead-lettered
 * @param latency publish-to-visible latency of every row that carried a publish time
 * @param liveLatency of the messages published after the consumer had caught up; null when none
 *     were
 * @param backlogLatency of the messages published before that: how long they waited
 * @param caughtUpAt when the consumer had caught up ({@link #CATCH_UP_LAG_SECONDS}); null if never
 * @param peakAppendClients most AppendRows streams (connections) open at once, as the BigQuery
 *     emulator counted them for this job; for a multi-job round, across all jobs
 * @param appendClientsCreated AppendRows streams opened over the run
 * @param deadLetterSamples the first dead-letter rows in full: stage, reason and the payload
 * @param deadLetterWriteFailures dead letters the dead-letter table refused: messages neither
 *     written nor kept, so never accounted for
 * @param foreignRows rows and dead letters outside the published range: not accounted for
 * @param runId the round this run belongs to ({@code --runId}); null for a run of its own
 * @param mismatchedRows visible rows whose content is not what their event index must produce (0
 *     when the content was not checked)
 * @param mismatches the first of them, column by column
 * @param intendedLatency visible − intended send time of the messages a paced publisher scheduled
 *     (a round's live publisher, the max-rate search's): its own delays count too; null when none
 * @param sourceDuplicates rows whose event index was already visible under another message id:
 *     events the source carried twice (a publisher's resend), not the sink's duplicates
 * @param unindexedDeadLetters dead letters without an event index: handled, matching no index
 * @param tableSkew how rows spread over the destination tables ({@code uniform}, {@code zipf:S});
 *     null in files written before it was recorded (uniform)
 * @param misroutedRows visible rows in another of the job's tables than their event goes to
 * @param misroutes the first of them: the table each is in and the one it belongs in
 * @param routeCheckedRows visible rows whose table was checked against their event's: 0 when none
 *     was (one table, or tables that state no routing)
 */
public record ConsumerResult(
    String runner,
    String source,
    String writeMethod,
    String rowFormat,
    String rowEncoding,
    int destinationTables,
    boolean useStorageApiConnectionPool,
    int numStorageWriteApiStreams,
    Integer triggeringFrequencySec,
    String startedAt,
    double seconds,
    String stopReason,
    long expected,
    long rowsWritten,
    long distinctMessageIds,
    long duplicates,
    long unindexedRows,
    long deadLettered,
    long accountedFor,
    Latency latency,
    Latency liveLatency,
    Latency backlogLatency,
    String caughtUpAt,
    List<String> deadLetterErrors,
    double cpuSeconds,
    int vcpus,
    int peakAppendClients,
    int appendClientsCreated,
    long maxHeapBytes,
    List<DeadLetterSample> deadLetterSamples,
    long deadLetterWriteFailures,
    String runId,
    long foreignRows,
    long mismatchedRows,
    List<String> mismatches,
    WindowLatency.Percentiles intendedLatency,
    long sourceDuplicates,
    long unindexedDeadLetters,
    String tableSkew,
    long misroutedRows,
    List<String> misroutes,
    long routeCheckedRows)
    implements SinkTally {

  /**
   * Messages handled ({@link EmulatorStatus.Job#handled}): accounted for, plus those without a
   * usable index written or dead-lettered, plus the source's duplicates.
   */
  public long handled() {
    return accountedFor + unindexedRows + unindexedDeadLetters + sourceDuplicates;
  }

  /**
   * How a stop reason begins when the consumer's pipeline ended by itself (finished or failed)
   * rather than being stopped: what it did not account for may still be in its source.
   */
  public static final String PIPELINE_ENDED = "pipeline ended";

  /** How a stop reason begins when the consumer stopped at its --timeout. */
  public static final String TIMED_OUT = "timeout";

  /**
   * Whether {@code stopReason} says a consumer stopped by itself short of its count (its timeout,
   * its pipeline ended): what it did not account for may still be in its source. A round of several
   * jobs joins its consumers' distinct reasons with {@code "; "}: any one of them that says so.
   */
  public static boolean stoppedShort(String stopReason) {
    if (stopReason == null) {
      return false;
    }
    for (String reason : stopReason.split("; ")) {
      if (reason.startsWith(TIMED_OUT) || reason.startsWith(PIPELINE_ENDED)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code notAccountedFor} messages are not all lost: its consumer stopped short ({@link
   * #stoppedShort}) and its verification found some of them {@code left} in its source (null: not
   * counted, so not known to be lost). A report and a summary line call them "not accounted for"
   * then, else "lost": a consumer that stopped short with nothing left is judged lost.
   */
  public static boolean notAllLost(long notAccountedFor, Long left, String stopReason) {
    return notAccountedFor > 0 && stoppedShort(stopReason) && (left == null || left > 0);
  }

  /**
   * The consumer has caught up once the oldest message still waiting is younger than this: above
   * one exactly-once commit (1 s triggering) plus a checkpoint, well below any backlog wait. {@code
   * docs/methodology.md} explains the rule; the report quotes it.
   */
  public static final long CATCH_UP_LAG_SECONDS = 5;

  /** Percentiles of an HDR histogram of latencies in milliseconds. */
  public record Latency(long samples, long p50Ms, long p90Ms, long p99Ms, long maxMs) {}
}
