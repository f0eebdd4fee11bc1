package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.analysis.model.Timeline;
import dev.ingestbench.analysis.model.TimelineRow;
import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.phases.SteadyStateDetector;
import dev.ingestbench.analysis.scenario.ResultRecords;
import dev.ingestbench.analysis.source.ConnectionsCsv;
import dev.ingestbench.analysis.source.CpuSamplesCsv;
import dev.ingestbench.analysis.source.MachineCpuCsv;
import dev.ingestbench.analysis.source.ProcessCpuCsv;
import dev.ingestbench.analysis.source.TableAppendsCsv;
import dev.ingestbench.analysis.source.TimelineCsv;
import dev.ingestbench.analysis.stats.Estimate;
import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.LiveProfileResult;
import dev.ingestbench.contracts.MaxRateResult;
import dev.ingestbench.contracts.ProcessCpuColumns;
import dev.ingestbench.contracts.PublisherResult;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.RoundSettings;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.ScenarioRunFiles;
import dev.ingestbench.contracts.StepStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything a local round's report says, computed from the raw files the round left: the
 * per-second write timeline, the consumer's per-second CPU samples, and the publisher and consumer
 * results.
 *
 * @param liveHalves a live phase at one rate cut in two halves, each with every job's latency (none
 *     before rounds recorded them, with a profile, or with an in-process sink)
 * @param fed the backlog was fed in tranches as the jobs read it ({@code round --feed}): no message
 *     of it is live, whatever the consumer called them
 * @param steps the round's one stage as it ran (its status marker; none in a round recorded before
 *     rounds wrote one, or a consumer's own directory)
 * @param results each job's verification as the round recorded it once the job had stopped
 * @param jobSamples in a round of several jobs, each job's own per-second samples by job (its
 *     checkpoints, which the round's summed samples leave out); empty for one job
 */
public record RoundAnalysis(
    Optional<RoundSettings> round,
    ConsumerResult consumer,
    List<PublisherResult> publishers,
    Timeline perSecond,
    Timeline perMinute,
    List<Phase> phases,
    List<CpuSamplesCsv.Sample> cpu,
    Optional<Phase> steady,
    Estimate steadyRowsPerSecond,
    Estimate steadyMbPerSecond,
    double steadyCpuUtilisation,
    double steadyCpuSeconds,
    String steadyCpuSource,
    double steadyJitSeconds,
    int vcpus,
    List<ProcessCpuCsv.Sample> processCpu,
    Optional<EmulatorStatus> emulator,
    List<ConnectionsCsv.Sample> connections,
    List<JobResult> jobResults,
    Optional<MaxRateResult> maxRate,
    Optional<LiveProfileResult> liveProfile,
    Optional<LiveProfileResult> liveHalves,
    List<MachineCpuCsv.Sample> machineCpu,
    boolean fed,
    List<StepStatus> steps,
    List<ResultRecord> results,
    List<TableAppendsCsv.Table> tables,
    Map<String, List<CpuSamplesCsv.Sample>> jobSamples) {

  /** One job's own result in a multi-job round (its subdirectory's consumer_result.json). */
  public record JobResult(String job, ConsumerResult result) {}

  /**
   * The live messages' latency, publish to visible: none for a fed round, whose messages are all
   * backlog, published as the jobs read it (the consumer would call them live: they came after it
   * first caught up with an empty subscription).
   */
  public ConsumerResult.Latency liveLatency() {
    return fed() ? null : consumer.liveLatency();
  }

  /** The backlog's waiting: every message of a fed round. */
  public ConsumerResult.Latency backlogLatency() {
    return fed() ? consumer.latency() : consumer.backlogLatency();
  }

  /** The pipeline ran on a Flink cluster's TaskManagers (processes_cpu.csv names them). */
  public boolean onFlinkCluster() {
    return processCpu.stream().anyMatch(p -> p.process().startsWith(ProcessCpuColumns.TASKMANAGER));
  }

  /**
   * Whose CPU the consumer's figures are: the consumer JVMs' (every life's when one was started
   * again), or a cluster's TaskManagers' ({@link SteadyCpu}).
   */
  public String consumerCpuSource() {
    if (steadyCpuSource != null) {
      return steadyCpuSource;
    }
    return onFlinkCluster() ? SteadyCpu.TASKMANAGERS : SteadyCpu.CONSUMER;
  }

  public static RoundAnalysis of(Path dir) throws IOException {
    // A consumer-only run (ingestbench consume --localOutputDir) has no round or publisher files.
    Optional<RoundSettings> round =
        Files.exists(dir.resolve(RunFiles.ROUND))
            ? Optional.of(RunJson.read(dir.resolve(RunFiles.ROUND), RoundSettings.class))
            : Optional.empty();
    ConsumerResult consumer =
        RunJson.read(dir.resolve(RunFiles.CONSUMER_RESULT), ConsumerResult.class);
    List<PublisherResult> publishers = new ArrayList<>();
    List<String> publisherFiles = new ArrayList<>();
    for (String name : List.of(RunFiles.PUBLISHER_BACKLOG, RunFiles.PUBLISHER_LIVE)) {
      if (Files.exists(dir.resolve(name))) {
        publishers.add(RunJson.read(dir.resolve(name), PublisherResult.class));
        publisherFiles.add(name);
      }
    }
    Optional<EmulatorStatus> emulator =
        Files.exists(dir.resolve(RunFiles.BIGQUERY_EMULATOR))
            ? Optional.of(
                RunJson.read(dir.resolve(RunFiles.BIGQUERY_EMULATOR), EmulatorStatus.class))
            : Optional.empty();
    // round --find-max-rate's probes and answer.
    Optional<MaxRateResult> maxRate =
        Files.exists(dir.resolve(RunFiles.MAX_RATE_SEARCH))
            ? Optional.of(RunJson.read(dir.resolve(RunFiles.MAX_RATE_SEARCH), MaxRateResult.class))
            : Optional.empty();
    // round --live-profile's steps.
    Optional<LiveProfileResult> liveProfile =
        Files.exists(dir.resolve(RunFiles.LIVE_PROFILE))
            ? Optional.of(RunJson.read(dir.resolve(RunFiles.LIVE_PROFILE), LiveProfileResult.class))
            : Optional.empty();
    // A live phase at one rate: its two halves' latency.
    Optional<LiveProfileResult> liveHalves =
        Files.exists(dir.resolve(RunFiles.LIVE_HALVES))
            ? Optional.of(RunJson.read(dir.resolve(RunFiles.LIVE_HALVES), LiveProfileResult.class))
            : Optional.empty();
    if (round.isPresent() && round.get().runId() != null) {
      RunIds check = new RunIds(dir, round.get().runId());
      check.require(RunFiles.CONSUMER_RESULT, consumer.runId());
      for (int i = 0; i < publishers.size(); i++) {
        check.require(publisherFiles.get(i), publishers.get(i).runId());
      }
      emulator.ifPresent(e -> check.require(RunFiles.BIGQUERY_EMULATOR, e.runId()));
      maxRate.ifPresent(m -> check.require(RunFiles.MAX_RATE_SEARCH, m.runId()));
      liveProfile.ifPresent(l -> check.require(RunFiles.LIVE_PROFILE, l.runId()));
      liveHalves.ifPresent(l -> check.require(RunFiles.LIVE_HALVES, l.runId()));
      check.requireCsvs(
          List.of(
              RunFiles.TIMELINE,
              RunFiles.TIMELINE_PER_SECOND,
              RunFiles.CONNECTIONS,
              RunFiles.TABLES,
              RunFiles.CONSUMER_SAMPLES,
              RunFiles.PROCESSES_CPU,
              RunFiles.MACHINE_CPU));
    }
    List<TimelineRow> rows = TimelineCsv.read(dir.resolve(RunFiles.TIMELINE_PER_SECOND));
    // The same checks as every timeline, before buckets are allocated by its span.
    TimelineAnalysis.requireSpan(rows);
    Timeline perSecond = Timeline.of(rows, 1, Timeline.dataTables());
    Timeline perMinute = Timeline.of(rows, 60, Timeline.dataTables());
    List<Phase> phases = new SteadyStateDetector().detect(perSecond);
    List<CpuSamplesCsv.Sample> cpu = CpuSamplesCsv.read(dir.resolve(RunFiles.CONSUMER_SAMPLES));
    int vcpus = cpu.isEmpty() ? Math.max(1, consumer.vcpus()) : cpu.get(0).vcpus();
    Optional<Phase> steady = phases.stream().filter(p -> p.name().equals("steady")).findFirst();
    List<Bucket> window =
        steady.map(p -> perSecond.slice(p.fromIndex(), p.toIndex())).orElse(List.of());
    Estimate rowsPerSecond = Estimate.of(window.stream().map(Bucket::rowsPerSecond).toList());
    Estimate mbPerSecond = Estimate.of(window.stream().map(Bucket::mbPerSecond).toList());
    List<ProcessCpuCsv.Sample> processes = ProcessCpuCsv.read(dir.resolve(RunFiles.PROCESSES_CPU));
    SteadyCpu steadyCpu =
        steady
            .map(p -> SteadyCpu.of(p, cpu, processes))
            .orElse(new SteadyCpu(0, 0, null, Double.NaN));
    double cpuSeconds = steadyCpu.cpuSeconds();
    long cpuSampleSeconds = steadyCpu.sampledSeconds();
    double utilisation =
        cpuSampleSeconds == 0 ? Double.NaN : cpuSeconds / (vcpus * (double) cpuSampleSeconds);
    return new RoundAnalysis(
        round,
        consumer,
        publishers,
        perSecond,
        perMinute,
        phases,
        cpu,
        steady,
        rowsPerSecond,
        mbPerSecond,
        utilisation,
        cpuSeconds,
        steadyCpu.source(),
        steadyCpu.jitSeconds(),
        vcpus,
        processes,
        emulator,
        ConnectionsCsv.read(dir.resolve(RunFiles.CONNECTIONS)),
        jobResults(dir, round.map(RoundSettings::jobCount).orElse(1)),
        maxRate,
        liveProfile,
        liveHalves,
        MachineCpuCsv.read(dir.resolve(RunFiles.MACHINE_CPU)),
        fed(dir, round),
        ScenarioRunFiles.steps(dir),
        ScenarioRunFiles.results(dir),
        TableAppendsCsv.read(dir.resolve(RunFiles.TABLES)),
        jobSamples(dir, round.map(RoundSettings::jobCount).orElse(1)));
  }

  /** Each job's own samples, from the subdirectories a multi-job round writes; none for one job. */
  private static Map<String, List<CpuSamplesCsv.Sample>> jobSamples(Path dir, int jobs)
      throws IOException {
    Map<String, List<CpuSamplesCsv.Sample>> samples = new LinkedHashMap<>();
    for (Path file : jobFiles(dir, jobs, RunFiles.CONSUMER_SAMPLES)) {
      samples.put(file.getParent().getFileName().toString(), CpuSamplesCsv.read(file));
    }
    return samples;
  }

  /**
   * {@code name} in each job's subdirectory of a multi-job round that has one; none for one job.
   */
  private static List<Path> jobFiles(Path dir, int jobs, String name) throws IOException {
    if (jobs < 2) {
      return List.of();
    }
    try (var entries = Files.list(dir)) {
      return entries
          .sorted()
          .filter(Files::isDirectory)
          .map(sub -> sub.resolve(name))
          .filter(Files::exists)
          .toList();
    }
  }

  /**
   * Whether the backlog was fed in tranches as the jobs read it ({@code round --feed}): its
   * round.json says so, or for one job's directory of a multi-job round, the round's.
   */
  private static boolean fed(Path dir, Optional<RoundSettings> round) throws IOException {
    if (round.isPresent()) {
      return Boolean.TRUE.equals(round.get().fed());
    }
    Path parent = dir.toAbsolutePath().getParent();
    Path roundJson = parent == null ? null : parent.resolve(RunFiles.ROUND);
    return roundJson != null
        && Files.exists(roundJson)
        && Boolean.TRUE.equals(RunJson.read(roundJson, RoundSettings.class).fed());
  }

  /** Each job's result, from the subdirectories a multi-job round writes; none for one job. */
  private static List<JobResult> jobResults(Path dir, int jobs) throws IOException {
    List<JobResult> results = new ArrayList<>();
    for (Path result : jobFiles(dir, jobs, RunFiles.CONSUMER_RESULT)) {
      results.add(
          new JobResult(
              result.getParent().getFileName().toString(),
              RunJson.read(result, ConsumerResult.class)));
    }
    return results;
  }

  /**
   * Messages the publishers had acknowledged by Pub/Sub; for a consumer-only run, the messages it
   * expected (the synthetic source's count).
   */
  public long published() {
    if (publishers.isEmpty()) {
      return consumer.expected();
    }
    return publishers.stream().mapToLong(PublisherResult::published).sum();
  }

  /** Consumer jobs that each read every published message (1 unless the round said otherwise). */
  public int jobs() {
    return round.map(RoundSettings::jobCount).orElse(1);
  }

  /**
   * Most AppendRows streams open at once, as the BigQuery emulator counted them across every job of
   * the round; for a job's own directory, that job's peak.
   */
  public int peakConnections() {
    return emulator.map(EmulatorStatus::peakConnections).orElse(consumer.peakAppendClients());
  }

  public long publishFailures() {
    return publishers.stream().mapToLong(PublisherResult::publishFailures).sum();
  }

  /** Rows per CPU-second of the consumer process over the steady state. */
  public double rowsPerCpuSecond() {
    if (steady.isEmpty() || steadyCpuSeconds == 0) {
      return Double.NaN;
    }
    long rows =
        perSecond.slice(steady.get().fromIndex(), steady.get().toIndex()).stream()
            .mapToLong(Bucket::rows)
            .sum();
    return rows / steadyCpuSeconds;
  }

  /**
   * The JIT compiler's share of the consumer's CPU over the steady window: the JVM compiling its
   * own code, which a short run pays in its measured seconds and a worker running for hours has
   * behind it. NaN where not recorded, or where the window's CPU is not the consumer's own samples
   * (a Flink cluster's TaskManagers, a consumer started again).
   */
  public double steadyJitShare() {
    if (steadyCpuSeconds == 0) {
      return Double.NaN;
    }
    double share = steadyJitSeconds / steadyCpuSeconds; // NaN where not the consumer's own
    // The two are read a moment apart each second: a share of all the CPU or more is not a figure.
    return share >= 1 ? Double.NaN : share;
  }

  /** {@link #rowsPerCpuSecond} without the JIT compiler's CPU; NaN where that is not recorded. */
  public double rowsPerCpuSecondWithoutJit() {
    return rowsPerCpuSecond() / (1 - steadyJitShare());
  }

  /** Average over the whole active window (first to last row written). */
  public double activeRowsPerSecond() {
    long seconds = phases.stream().mapToLong(Phase::buckets).sum();
    return seconds == 0 ? Double.NaN : perSecond.totalRows() / (double) seconds;
  }

  public long activeSeconds() {
    return phases.stream().mapToLong(Phase::buckets).sum();
  }

  /**
   * CPU-seconds each process of the round used in [from, to), by the seconds its samples cover, in
   * the order the processes first appear.
   */
  public Map<String, Double> processCpuSeconds(Instant from, Instant to) {
    Map<String, Double> totals = new LinkedHashMap<>();
    for (ProcessCpuCsv.Sample s : processCpu) {
      long covered = s.second().getEpochSecond() - 1;
      if (covered >= from.getEpochSecond() && covered < to.getEpochSecond()) {
        totals.merge(s.process(), s.cpuSeconds(), Double::sum);
      }
    }
    return totals;
  }

  /**
   * The whole machine's CPU-seconds over [from, to): busy (steal excluded), steal, and every kind;
   * null when the round recorded none (an older round, or no {@code /proc}).
   */
  public double[] machineCpuSeconds(Instant from, Instant to) {
    double[] sums = new double[3];
    int seen = 0;
    for (MachineCpuCsv.Sample s : machineCpu) {
      long covered = s.second().getEpochSecond() - 1;
      if (covered >= from.getEpochSecond() && covered < to.getEpochSecond()) {
        sums[0] += s.busy();
        sums[1] += s.steal();
        sums[2] += s.total();
        seen++;
      }
    }
    return seen == 0 ? null : sums;
  }

  /** Most heap the consumer had in use at any per-second sample (after GC or not). */
  public long peakConsumerHeapBytes() {
    return cpu.stream().mapToLong(CpuSamplesCsv.Sample::heapUsedBytes).max().orElse(0);
  }

  /**
   * What every job left in its source once it stopped, as its verification read it; null unless
   * every job's was counted (a round recorded before, a source that could not be read, one job's
   * directory of several).
   */
  public Long left() {
    List<ResultRecord> left =
        results.stream()
            .filter(
                r ->
                    r.metric().equals(ResultRecords.LEFT) && !r.job().equals(ResultRecord.ALL_JOBS))
            .toList();
    return left.size() != jobs() ? null : left.stream().mapToLong(r -> Math.round(r.value())).sum();
  }

  /**
   * Messages some job never wrote nor dead-lettered: every job must account for every message. A
   * round's publishers wrote indexes [0, published), so its loss is by index, as its verification
   * decides it; a consume run of messages of any kind (--expectedMessages) has only a count, so
   * what it handled without a usable index counts too, as the run itself counted to end.
   */
  public long lost() {
    // Not clamped: a negative number shows a miscount rather than hide it as 0.
    long handled = publishers.isEmpty() ? consumer.handled() : consumer.accountedFor();
    return published() * jobs() - handled;
  }
}
