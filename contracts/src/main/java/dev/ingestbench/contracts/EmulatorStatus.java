package dev.ingestbench.contracts;

import java.util.List;

/**
 * What the local BigQuery server knows about a round, served as JSON at {@link #PATH} of its REST
 * port and written as {@link RunFiles#BIGQUERY_EMULATOR} when it stops.
 *
 * <p>A connection is one open AppendRows gRPC stream, as BigQuery counts it for {@code
 * write/concurrent_connections}. A job is what the client names in its trace id (Beam: the job
 * name), so each consumer of a multi-job round is verified on its own.
 *
 * @param grpcAddress where the Storage Write API listens ({@code host:port}, plaintext)
 * @param restUrl where the BigQuery REST API (tables) and this status listen
 * @param connectionsRefused AppendRows streams refused because {@code --max-connections} were open
 * @param throttledAppends appends the throughput quota delayed
 * @param throttledSeconds total delay those appends waited
 * @param quotaMbPerSecond the throughput quota it enforced (0: none)
 * @param maxConnections the connection limit it enforced
 * @param faultsInjected appends failed, streams dropped and connections drained on purpose ({@code
 *     --fault})
 * @param runId the round it served ({@code --run-id}); null when it was started without one
 * @param invisibleRows rows appended to PENDING or BUFFERED streams and never made visible (not
 *     committed, not flushed): after a round, rows the writer handed over but did not finish
 * @param streams every stream created with CreateWriteStream (the default streams are not listed)
 * @param rejectedAppends appends refused with RESOURCE_EXHAUSTED by {@code --quota-mode reject}
 * @param rowsDiscarded rows acknowledged and never stored ({@code --fault discard=F}): what a
 *     correct verification reports as lost
 * @param rowsDuplicated rows stored a second time ({@code --fault duplicate=F}): what it reports as
 *     duplicates
 * @param rowsCorrupted rows altered by the store ({@code --fault corrupt=F}): what the content
 *     check reports as mismatched
 * @param contentSeed the publishers' seed every row's content was checked against; null: not
 *     checked
 * @param faults every fault asked for ({@code --fault}), what its fraction is of and how often it
 *     fired; empty when none was (null in a status written before it was counted)
 * @param rpcTimes how long the server took to answer each kind of call, from its arrival to its
 *     answer (a quota's hold included): the sink's side of every append, flush, finalize and commit
 *     (null in a status written before they were timed)
 * @param apiCalls the calls around appending that many tables multiply (tables.get and insert,
 *     CreateWriteStream), counted with what the limits did to them (null in a status written before
 *     they were counted)
 * @param quotaTiers the quotas that refused appends while they refilled ({@code --quota-mode
 *     reject}: the cell; {@code two-tier}: the regional, then the cell), each with what it refused
 *     and when; empty when the quota throttles instead (null in a status written before tiers)
 */
public record EmulatorStatus(
    String grpcAddress,
    String restUrl,
    String startedAt,
    int openConnections,
    int peakConnections,
    long connectionsOpened,
    long connectionsRefused,
    long appendRequests,
    long throttledAppends,
    double throttledSeconds,
    List<Job> jobs,
    double quotaMbPerSecond,
    double quotaWindowSeconds,
    int maxConnections,
    long faultsInjected,
    String runId,
    long invisibleRows,
    List<Stream> streams,
    long rejectedAppends,
    long rowsDiscarded,
    long rowsDuplicated,
    long rowsCorrupted,
    Long contentSeed,
    List<FaultCount> faults,
    List<RpcTime> rpcTimes,
    ApiCalls apiCalls,
    List<QuotaTier> quotaTiers) {

  /**
   * One append-throughput quota that refuses while it refills, and what it refused.
   *
   * @param tier {@code cell} (the short-term quota) or {@code regional} (the long-term one)
   * @param mbPerSecond its rate, MB/s (10^6 bytes)
   * @param windowSeconds how long its budget lasts before it refills
   * @param refusedAppends appends it refused with RESOURCE_EXHAUSTED
   * @param refusedBytes their bytes (refused appends are retried, so a byte may be counted again)
   * @param refusalWindows windows in which it refused at least once
   * @param refusals those windows, oldest first (the first 1,000)
   */
  public record QuotaTier(
      String tier,
      double mbPerSecond,
      double windowSeconds,
      long refusedAppends,
      long refusedBytes,
      long refusalWindows,
      List<QuotaRefusal> refusals) {}

  /**
   * One window of a quota in which it refused appends: it refused from the first to the last and
   * refilled at the end, epoch milliseconds.
   */
  public record QuotaRefusal(
      long firstRefusedMs, long lastRefusedMs, long refilledMs, long appends, long bytes) {}

  /** The quota tiers, none when not recorded. */
  public List<QuotaTier> quotaTiersOrEmpty() {
    return quotaTiers == null ? List.of() : quotaTiers;
  }

  /**
   * The refusals by tier in words, e.g. {@code regional 120 in 1 window(s) of 60 s, cell 40 in 3
   * window(s) of 10 s}; empty when no tier refused (a throttling quota, or a status written before
   * tiers).
   */
  public String quotaRefusalsByTier() {
    return String.join(
        ", ",
        quotaTiersOrEmpty().stream()
            .filter(t -> t.refusedAppends() > 0)
            .map(
                t ->
                    String.format(
                        java.util.Locale.ROOT,
                        "%s %,d in %,d window(s) of %.0f s",
                        t.tier(),
                        t.refusedAppends(),
                        t.refusalWindows(),
                        t.windowSeconds()))
            .toList());
  }

  /**
   * The calls around appending that grow with the number of tables, as the limits met them.
   *
   * @param tablesGetCalls tables.get requests (Beam's CREATE_IF_NEEDED asks per table and worker)
   * @param tablesGetThrottled of them refused by the per-method quota (403 rateLimitExceeded)
   * @param tablesInsertCalls tables.insert requests
   * @param tablesInsertThrottled of them refused by the quota
   * @param tablesPerSecond the quota, per method; 0: none
   * @param createWriteStreamCalls CreateWriteStream calls (their times: {@code rpc_times})
   * @param createWriteStreamSlowed of them held longer because the call rate passed the threshold
   * @param createWriteStreamPerSecond that threshold; 0: no slowdown
   * @param tablesInsertFirstMs when the first tables.insert arrived, epoch ms; null: none (or a
   *     status written before it was recorded)
   * @param tablesInsertLastMs when the last one arrived
   * @param tablesGetP50Ms tables.get's median time from arrival to answer (refusals included); null
   *     without calls
   * @param tablesGetP99Ms its 99th percentile
   * @param tablesInsertP50Ms tables.insert's median
   * @param tablesInsertP99Ms its 99th percentile
   */
  public record ApiCalls(
      long tablesGetCalls,
      long tablesGetThrottled,
      long tablesInsertCalls,
      long tablesInsertThrottled,
      double tablesPerSecond,
      long createWriteStreamCalls,
      long createWriteStreamSlowed,
      double createWriteStreamPerSecond,
      Long tablesInsertFirstMs,
      Long tablesInsertLastMs,
      Double tablesGetP50Ms,
      Double tablesGetP99Ms,
      Double tablesInsertP50Ms,
      Double tablesInsertP99Ms) {}

  /**
   * The calls of one kind the server answered and how long each took it.
   *
   * @param rpc the Storage Write API method, e.g. {@code AppendRows}
   * @param serverSeconds the time spent answering them all
   */
  public record RpcTime(
      String rpc, long calls, double p50Ms, double p99Ms, double maxMs, double serverSeconds) {}

  /** The HTTP path of the status on the server's REST port. */
  public static final String PATH = "/ingestbench/v1/status";

  /** The job of appends whose client sent no trace id a job could be read from. */
  public static final String UNNAMED_JOB = "unnamed";

  /**
   * This status with {@code jobs} and {@code streams} added: jobs that wrote to emulators of their
   * own (a scenario's {@code sink: in-process}), read beside the run's one.
   */
  public EmulatorStatus with(List<Job> moreJobs, List<Stream> moreStreams, long moreInvisible) {
    List<Job> allJobs = new java.util.ArrayList<>(jobs);
    allJobs.addAll(moreJobs);
    List<Stream> allStreams = new java.util.ArrayList<>(streams == null ? List.of() : streams);
    allStreams.addAll(moreStreams);
    return new EmulatorStatus(
        grpcAddress,
        restUrl,
        startedAt,
        openConnections,
        peakConnections,
        connectionsOpened,
        connectionsRefused,
        appendRequests,
        throttledAppends,
        throttledSeconds,
        List.copyOf(allJobs),
        quotaMbPerSecond,
        quotaWindowSeconds,
        maxConnections,
        faultsInjected,
        runId,
        invisibleRows + moreInvisible,
        List.copyOf(allStreams),
        rejectedAppends,
        rowsDiscarded,
        rowsDuplicated,
        rowsCorrupted,
        contentSeed,
        faults,
        rpcTimes,
        apiCalls,
        quotaTiers);
  }

  /** The job named {@code job}, or an empty one when it has written nothing yet. */
  public Job job(String job) {
    return jobs.stream().filter(j -> j.job().equals(job)).findFirst().orElse(Job.empty(job));
  }

  /**
   * One created write stream, to see where rows stopped: appended but never flushed or committed.
   *
   * @param name the stream's id (the part after {@code /streams/})
   * @param table {@code dataset.table}
   * @param type PENDING, BUFFERED or COMMITTED
   * @param appendedRows rows appended to it
   * @param visibleRows of those, rows readable in the table
   * @param finalized whether FinalizeWriteStream was called
   */
  public record Stream(
      String name,
      String table,
      String type,
      String createdAt,
      long appendedRows,
      long visibleRows,
      boolean finalized) {}

  /**
   * What one job wrote, verified row by row.
   *
   * @param rowsWritten rows visible in the data tables, duplicates included
   * @param distinctMessageIds distinct event indexes among them
   * @param duplicates rows whose message was already visible: the same message id written twice by
   *     the sink (or no id to tell)
   * @param unindexedRows rows without an event index (not checkable)
   * @param deadLettered rows in the dead-letter tables
   * @param accountedFor distinct published messages written or dead-lettered (by event index); a
   *     dead letter without an event index is not among them: it cannot stand in for a lost message
   * @param bytesWritten input bytes of successful appends to data tables (dead letters excluded)
   * @param deadLetters the first dead-letter rows in full (stage, reason, payload)
   * @param foreignRows rows and dead letters whose event index is outside the published range (when
   *     the server was told it): not this round's messages, so not accounted for
   * @param unindexedDeadLetters dead letters without an event index (a message that was not one of
   *     the run's): a consumer has handled them, but they account for no published message
   * @param mismatchedRows visible rows whose content is not what their event index must produce
   *     (checked when the server knows the publishers' seed)
   * @param mismatches the first of them, column by column
   * @param intendedLatency visible − intended send time of every message a paced publisher
   *     scheduled ({@link SendSchedule}), p50 to max; null when none was
   * @param sourceDuplicates rows whose event index was already visible under another message id: an
   *     event the source carried twice, not a duplicate of the sink's
   * @param appendRequests AppendRows requests the job made, counted as they arrive (before a quota
   *     holds or a fault refuses them): whether it is still trying to write though no row lands
   * @param appendsInFlight its requests not yet answered (a quota may hold one for a window)
   * @param misroutedRows visible rows in another of the job's tables than their event goes to
   *     (checked for tables whose description states the job's routing)
   * @param misroutes the first of them: the table each is in and the one it belongs in
   * @param routeCheckedRows visible rows whose table was checked: 0 when none of its tables states
   *     a routing (one table, or tables made by someone else)
   */
  public record Job(
      String job,
      long rowsWritten,
      long distinctMessageIds,
      long duplicates,
      long unindexedRows,
      long deadLettered,
      long accountedFor,
      List<String> deadLetterErrors,
      ConsumerResult.Latency latency,
      ConsumerResult.Latency liveLatency,
      ConsumerResult.Latency backlogLatency,
      String caughtUpAt,
      int openConnections,
      int peakConnections,
      long connectionsOpened,
      long bytesWritten,
      List<DeadLetterSample> deadLetters,
      long foreignRows,
      long unindexedDeadLetters,
      long mismatchedRows,
      List<String> mismatches,
      WindowLatency.Percentiles intendedLatency,
      long sourceDuplicates,
      long appendRequests,
      int appendsInFlight,
      long misroutedRows,
      List<String> misroutes,
      long routeCheckedRows)
      implements SinkTally {

    /**
     * Messages the job has handled: accounted for, plus messages without a usable index that it
     * wrote or dead-lettered, plus second messages of an index (the source's duplicates). A run
     * waits for this to reach what was published: a written message without an index must end it as
     * surely as a dead-lettered one (it never could, and timed out). Foreign rows are not counted:
     * a leftover of another run must not end this one early. Loss itself is decided by index.
     */
    public long handled() {
      return accountedFor + unindexedDeadLetters + unindexedRows + sourceDuplicates;
    }

    public static Job empty(String job) {
      return new Job(
          job, 0, 0, 0, 0, 0, 0, List.of(), null, null, null, null, 0, 0, 0, 0, List.of(), 0, 0, 0,
          List.of(), null, 0, 0, 0, 0, List.of(), 0);
    }
  }
}
