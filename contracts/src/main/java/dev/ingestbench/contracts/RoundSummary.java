package dev.ingestbench.contracts;

import java.util.List;
import java.util.Map;

/**
 * {@code summary.json}: every number of a round's report, with how it was measured. The first
 * components are the contract scripts read; null means "not measured" (never a made-up zero).
 *
 * @param p50LatencyMs publish to visible over every message, backlog waiting included
 * @param liveP50LatencyMs only messages published after the consumer had caught up: the pipeline's
 *     own latency; null when there were none (see {@link #liveLatencyNote})
 * @param jobs consumer jobs that each read every message; {@code lost} counts against all of them
 * @param lost what the consumers did not account for (published × jobs − accounted for), as they
 *     counted it: what a consumer that stopped short (its timeout) left in its source counts here
 * @param left what the jobs left in their source once they stopped, as their verification read it
 *     (results.jsonl's {@code left}); null where it was not counted or in files written before
 * @param peakConnections most AppendRows streams open at once, counted by the BigQuery emulator
 *     across every job (Cloud Monitoring's {@code write/concurrent_connections})
 * @param connectionsRefused streams refused at the connection limit; null without an emulator
 *     process
 * @param throttledAppends appends the throughput quota slowed; null without an emulator process
 * @param mismatchedRows visible rows whose content is not what their event index must produce (the
 *     BigQuery emulator checks every row against the publishers' seed)
 * @param mismatches the first of them, column by column
 * @param maxSustainableRowsPerSecond {@code round --find-max-rate}: the highest rate every job
 *     sustained inside the latency SLO (rows/s per job); null without the search or when none was
 * @param limitedBy what limited the round: what ended a search ({@link MaxRateResult#limitedBy}),
 *     else what limited it over its steady window ({@code quota}, {@code connections}, {@code
 *     consumer-cpu}, {@code source-emulator}, {@code machine-cpu}, or {@code unknown}); null in
 *     files written before every round had one
 * @param liveIntendedP50LatencyMs visible − intended send time of the live messages (the paced live
 *     publisher's schedule): the latency a user of the pipeline waits, the publisher's own delays
 *     included; null when no message had a schedule (the four figures alike)
 * @param sourceDuplicates rows of an event already written under another message id: the source
 *     carried the event twice (a publisher's resend), so not among {@code duplicates} and not
 *     against exactly-once; 0 under the project's own publishers
 * @param faults every fault the round asked the BigQuery emulator for: what its fraction is of, how
 *     many of those the run had, how often it fired (for all jobs together); empty without faults
 * @param machineBusyShare the whole machine's busy share over the steady window (0..1: every
 *     process and steal, from {@code /proc/stat}); null when not recorded
 * @param otherProcessesShare what processes other than the run's used of the machine over the
 *     steady window: work that depresses every figure here; null when not recorded
 * @param stealShare what the hypervisor took over the steady window; null when not recorded
 * @param consumerShare what the pipeline (the consumer JVMs, or a Flink cluster's TaskManagers)
 *     used of the machine's vCPUs over the steady window; null when no process CPU was recorded
 * @param harnessShare what every other process the round started (emulators, broker, publishers,
 *     the round's own JVM) used of the machine's vCPUs over the steady window: the stand-ins for
 *     Google's services, which on Dataflow run elsewhere; null when not recorded
 * @param limitedByEvidence the figures that name {@code limitedBy}
 * @param liveLimitedBy the live phase's own verdict: {@code kept-up} when the jobs wrote what the
 *     live publisher offered, else what limited them; null without live traffic (or in files
 *     written before it)
 * @param liveLimitedByEvidence the figures that name {@code liveLimitedBy}: offered and written
 *     rates, the live latency, the headroom the backlog's drain showed
 * @param cost what the round's load would cost on Dataflow (docs/cost.md); null for a consumer's
 *     run alone, one job's directory of several, a round without a CPU per row, or files written
 *     before it
 * @param tableSkew how rows spread over the destination tables: {@code uniform} or {@code zipf:S}
 * @param misroutedRows visible rows in another of a job's tables than their event goes to (every
 *     row is checked where the tables state their routing); any fails the round
 * @param misroutes the first of them: the table each is in and the one it belongs in
 * @param destinations what many tables cost, for a round of more than one table; null otherwise
 * @param quotaRefusals what each throughput quota that refuses while it refills ({@code
 *     --quota-mode reject} or {@code two-tier}) refused and when; empty when none refused
 * @param consumerJitShare of the consumer's CPU over the steady window, what its JIT compiler
 *     threads used (the JVM's warm-up, which a long-running worker has behind it); null where not
 *     recorded
 * @param rowsPerCpuSecondWithoutJit {@code rowsPerCpuSecond} without that CPU; null likewise
 */
public record RoundSummary(
    long published,
    long written,
    long distinctMessageIds,
    long duplicates,
    long deadLettered,
    long lost,
    Long left,
    Double rowsPerSecond,
    Double rowsPerSecondPerVcpu,
    Double rowsPerCpuSecond,
    Double cpuUtilisation,
    Long p50LatencyMs,
    Long p99LatencyMs,
    Long liveP50LatencyMs,
    Long liveP99LatencyMs,
    long liveLatencySamples,
    Long backlogP50LatencyMs,
    Long backlogP99LatencyMs,
    String caughtUpAt,
    String liveLatencyNote,
    String runner,
    String writeMethod,
    String rowFormat,
    int destinationTables,
    Double mbPerSecond,
    Estimate rowsPerSecondEstimate,
    Estimate mbPerSecondEstimate,
    Double activeRowsPerSecond,
    long activeSeconds,
    long publishFailures,
    boolean complete,
    String stopReason,
    int peakAppendClients,
    long peakConsumerHeapMb,
    long consumerMaxHeapMb,
    Map<String, PhaseWindow> phases,
    Map<String, Double> steadyCpuSecondsByProcess,
    Measured measured,
    int jobs,
    int peakConnections,
    Long connectionsRefused,
    Long throttledAppends,
    Double throttledSeconds,
    List<String> diagnosis,
    String runId,
    long foreignRows,
    long deadLetterWriteFailures,
    long mismatchedRows,
    List<String> mismatches,
    Double maxSustainableRowsPerSecond,
    String limitedBy,
    Long liveIntendedP50LatencyMs,
    Long liveIntendedP99LatencyMs,
    Long liveIntendedP999LatencyMs,
    Long liveIntendedMaxLatencyMs,
    long liveIntendedLatencySamples,
    long sourceDuplicates,
    List<FaultCount> faults,
    Double machineBusyShare,
    Double otherProcessesShare,
    Double stealShare,
    Double consumerShare,
    Double harnessShare,
    String limitedByEvidence,
    String liveLimitedBy,
    String liveLimitedByEvidence,
    RunCost cost,
    String tableSkew,
    long misroutedRows,
    List<String> misroutes,
    Destinations destinations,
    List<QuotaRefusals> quotaRefusals,
    Double consumerJitShare,
    Double rowsPerCpuSecondWithoutJit) {

  /**
   * What one tier of the throughput quota refused while it refilled, in seconds after the consumer
   * started.
   *
   * @param tier {@code regional} (the long-term quota) or {@code cell} (the short-term one)
   * @param mbPerSecond its rate
   * @param windowSeconds how long its budget lasts before it refills
   * @param refusedAppends appends it refused (each retried by the writer)
   * @param refusedMb their megabytes
   * @param refusalWindows windows in which it refused
   * @param windows those windows: refusing from {@code fromSeconds} to {@code lastSeconds}, full
   *     again at {@code refilledSeconds} (the first 1,000)
   */
  public record QuotaRefusals(
      String tier,
      double mbPerSecond,
      double windowSeconds,
      long refusedAppends,
      double refusedMb,
      long refusalWindows,
      List<RefusalWindow> windows) {}

  /** One window in which a quota tier refused appends, seconds after the consumer started. */
  public record RefusalWindow(
      double fromSeconds, double lastSeconds, double refilledSeconds, long appends) {}

  /**
   * What writing many tables cost the round, from the emulator's per-table appends and its call
   * counts.
   *
   * @param tables the tables the jobs were to write
   * @param tablesWritten of them with at least one row
   * @param tableCreation {@code if-needed} or {@code ahead}
   * @param firstRowSeconds from the consumer's start to the first row in any table
   * @param allTablesSeconds from the consumer's start to the first row of the last table to get one
   * @param rowsPerTableMin the fewest rows a written table got
   * @param rowsPerTableMedian the median
   * @param rowsPerTableMax the most
   * @param hottestShare the share of all rows the busiest table got
   * @param expectedHottestShare the share the skew gives table 0
   * @param tablesGetCalls tables.get requests the emulator answered or refused
   * @param tablesGetThrottled of them refused by the quota
   * @param tablesInsertCalls tables.insert requests
   * @param tablesInsertThrottled of them refused by the quota
   * @param createWriteStreamCalls CreateWriteStream calls
   * @param createWriteStreamP99Ms their 99th percentile, arrival to answer; null without calls
   * @param createWriteStreamSlowed of them held longer for the call rate
   * @param tablesInsertFromSeconds the first tables.insert, seconds after the consumer started
   *     (negative: before it, e.g. by another job); null without calls or a start
   * @param tablesInsertToSeconds the last one: with the first, how long making the tables took
   * @param tablesGetP99Ms tables.get's 99th percentile, arrival to answer; null without calls
   * @param tablesInsertP99Ms tables.insert's
   */
  public record Destinations(
      int tables,
      int tablesWritten,
      String tableCreation,
      Double firstRowSeconds,
      Double allTablesSeconds,
      long rowsPerTableMin,
      long rowsPerTableMedian,
      long rowsPerTableMax,
      double hottestShare,
      double expectedHottestShare,
      long tablesGetCalls,
      long tablesGetThrottled,
      long tablesInsertCalls,
      long tablesInsertThrottled,
      long createWriteStreamCalls,
      Double createWriteStreamP99Ms,
      long createWriteStreamSlowed,
      Double tablesInsertFromSeconds,
      Double tablesInsertToSeconds,
      Double tablesGetP99Ms,
      Double tablesInsertP99Ms) {}

  /** A mean with its spread and 95% confidence interval over {@code n} samples. */
  public record Estimate(Double mean, Double stddev, Double ci95Low, Double ci95High, long n) {}

  public record PhaseWindow(String start, String end, long seconds) {}

  /** How the numbers were measured: the machine, the window and what each sample is. */
  public record Measured(
      int vcpus,
      long steadyWindowSeconds,
      Double steadyCpuSeconds,
      String samples,
      String cpuUtilisationDefinition,
      String latencyDefinition,
      RoundSettings round) {}
}
