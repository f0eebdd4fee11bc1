package dev.ingestbench.harness.round;

import dev.ingestbench.analysis.stats.Estimate;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.MachineCpuColumns;
import dev.ingestbench.contracts.MaxRateResult;
import dev.ingestbench.contracts.ProcStat;
import dev.ingestbench.contracts.WindowLatency;
import dev.ingestbench.harness.process.MachineCpu;
import dev.ingestbench.harness.source.RatedPublisher;
import dev.ingestbench.harness.staged.Ticker;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Reads a probe's window: counts at its start, one sample a second, and the CPU it used. */
final class ProbeWindow {
  private final RoundRateSearch.Round round;
  private final SearchWorld.Sink rest;
  private final RatedPublisher p;
  private final SearchWorld world;
  private final Ticker ticker;
  private final long fromMs;
  private final Instant start;
  private final long acknowledgedAtStart;
  private final long[] accountedAtStart;
  private final long[] lastAccounted;
  private final List<List<Double>> perSecond = new ArrayList<>();
  private final double[] consumerCpuAtStart;
  private final double sourceCpuAtStart;
  private final double sinkCpuAtStart;
  private final MachineCpu machineAtStart;
  private final double selfCpuAtStart;
  private final long throttledAtStart;
  private final long refusedAtStart;
  private Instant lastSample;
  private long toMs;
  private double seconds;

  private long acknowledged;
  private long backlog;
  private double consumerCpu;
  private double sourceCpu;
  private double sinkCpu;
  private double machineBusy;
  private double otherCores;
  private long throttled;
  private long refused;

  ProbeWindow(
      RoundRateSearch.Round round, SearchWorld.Sink rest, RatedPublisher p, SearchWorld world)
      throws IOException {
    this.round = round;
    this.rest = rest;
    this.p = p;
    this.world = world;
    this.ticker = world.ticker();
    this.start = ticker.now();
    this.lastSample = start;
    this.fromMs = start.toEpochMilli();
    this.machineAtStart = world.machine();
    this.selfCpuAtStart = cpu(ProcessHandle.current().pid());
    EmulatorStatus s = rest.status();
    acknowledgedAtStart = p.acknowledged();
    accountedAtStart = new long[round.jobs().size()];
    lastAccounted = new long[round.jobs().size()];
    consumerCpuAtStart = new double[round.jobs().size()];
    for (int j = 0; j < round.jobs().size(); j++) {
      accountedAtStart[j] = s.job(round.jobs().get(j)).accountedFor();
      lastAccounted[j] = accountedAtStart[j];
      consumerCpuAtStart[j] = cpu(round.consumerPids().get(j).getAsLong());
      perSecond.add(new ArrayList<>());
    }
    sourceCpuAtStart = cpu(round.sourcePid());
    sinkCpuAtStart = cpu(round.sinkPid());
    throttledAtStart = s.throttledAppends();
    refusedAtStart = s.connectionsRefused();
  }

  private double cpu(long pid) {
    return pid > 0 ? Math.max(0, world.cpuSeconds(pid)) : 0;
  }

  /** One second's sample; why the probe is cut short, or null. */
  String sample(double rate, Duration slo) throws IOException {
    EmulatorStatus s = rest.status();
    Instant now = ticker.now();
    double dt = Duration.between(lastSample, now).toNanos() / 1e9;
    lastSample = now;
    for (int j = 0; j < round.jobs().size(); j++) {
      long a = s.job(round.jobs().get(j)).accountedFor();
      perSecond.get(j).add((a - lastAccounted[j]) / dt);
      lastAccounted[j] = a;
    }
    return deepBacklog(s, rate, slo);
  }

  /** The latency window ends: its messages are those meant to be sent until now. */
  void endLatencyWindow() {
    toMs = ticker.now().toEpochMilli();
  }

  /**
   * Why the backlog already means the SLO is missed: more is waiting than the rate brings in an
   * SLO, so the newest message waits longer than the SLO even if the job wrote at the full rate.
   */
  private String deepBacklog(EmulatorStatus s, double rate, Duration slo) {
    long worst = 0;
    for (String job : round.jobs()) {
      worst = Math.max(worst, p.handed() - s.job(job).accountedFor());
    }
    double sinceStart = ticker.secondsSince(start);
    if (sinceStart >= 3 && worst > rate * slo.toMillis() / 1000.0) {
      return String.format(
          Locale.ROOT,
          "cut short: %,d messages waiting, more than the rate brings in --latency-slo",
          worst);
    }
    return null;
  }

  /** Ends the measurement: the counts and CPU it covered. */
  void close() throws IOException {
    EmulatorStatus s = rest.status();
    if (toMs == 0) {
      toMs = ticker.now().toEpochMilli();
    }
    seconds = ticker.secondsSince(start);
    acknowledged = p.acknowledged() - acknowledgedAtStart;
    long handedNow = p.handed();
    for (int j = 0; j < round.jobs().size(); j++) {
      backlog = Math.max(backlog, handedNow - s.job(round.jobs().get(j)).accountedFor());
      consumerCpu += cpu(round.consumerPids().get(j).getAsLong()) - consumerCpuAtStart[j];
    }
    sourceCpu = cpu(round.sourcePid()) - sourceCpuAtStart;
    sinkCpu = cpu(round.sinkPid()) - sinkCpuAtStart;
    MachineCpu machineNow = world.machine();
    machineBusy = machineNow.busyShareSince(machineAtStart);
    double selfCpu = cpu(ProcessHandle.current().pid()) - selfCpuAtStart;
    double machineBusyCpu = (machineNow.busy() - machineAtStart.busy()) / ProcStat.TICKS_PER_SECOND;
    double machineCores =
        (machineNow.total() - machineAtStart.total()) / ProcStat.TICKS_PER_SECOND / seconds;
    // In a container limited to fewer CPUs /proc/stat is the host's: no share of ours in it.
    boolean ours =
        machineNow.known()
            && MachineCpuColumns.isThisMachine(
                machineCores * seconds, Runtime.getRuntime().availableProcessors(), seconds);
    otherCores =
        ours
            ? Math.max(0, machineBusyCpu - consumerCpu - sourceCpu - sinkCpu - selfCpu) / seconds
            : 0;
    throttled = s.throttledAppends() - throttledAtStart;
    refused = s.connectionsRefused() - refusedAtStart;
  }

  MaxRateResult.Probe judge(int number, double rate, Instant startedAt, Duration slo, String cut)
      throws IOException {
    // Whole seconds: the local BigQuery keeps latency per second of intended send time.
    long from = Math.floorDiv(fromMs + 999, 1000L) * 1000;
    long to = Math.floorDiv(toMs, 1000L) * 1000;
    long expected = Math.round(rate * Math.max(0, to - from) / 1000.0);
    double publishedPerSecond = acknowledged / seconds;
    // Every job must keep up: the first that did not decides, else the slowest.
    int decisive = -1;
    String verdict = ProbeVerdict.SUSTAINED;
    List<WindowLatency> latencies = new ArrayList<>();
    for (int j = 0; j < round.jobs().size(); j++) {
      WindowLatency l = rest.windowLatency(round.jobs().get(j), from, to);
      latencies.add(l);
      String v =
          ProbeVerdict.of(
              rate,
              publishedPerSecond,
              Estimate.of(perSecond.get(j)).mean(),
              l.intended(),
              expected,
              slo,
              cut,
              RoundRateSearch.KEPT_UP,
              RoundRateSearch.LATE_SHARE);
      if (!v.equals(ProbeVerdict.SUSTAINED) && decisive < 0) {
        decisive = j;
        verdict = round.jobs().size() > 1 ? round.jobs().get(j) + ": " + v : v;
      }
    }
    if (decisive < 0) {
      decisive = 0;
      for (int j = 1; j < round.jobs().size(); j++) {
        if (Estimate.of(perSecond.get(j)).mean() < Estimate.of(perSecond.get(decisive)).mean()) {
          decisive = j;
        }
      }
    }
    Estimate e = Estimate.of(perSecond.get(decisive));
    return new MaxRateResult.Probe(
        number,
        rate,
        startedAt.toString(),
        publishedPerSecond,
        new MaxRateResult.Rate(e.mean(), e.ci95Low(), e.ci95High(), e.n()),
        List.copyOf(perSecond.get(decisive)),
        backlog,
        latencies.get(decisive).intended(),
        latencies.get(decisive).published(),
        expected,
        consumerCpu / seconds,
        machineBusy,
        sourceCpu / seconds,
        sinkCpu / seconds,
        throttled,
        refused,
        verdict.equals(ProbeVerdict.SUSTAINED),
        verdict,
        otherCores);
  }
}
