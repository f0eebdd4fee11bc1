package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.diagnosis.Verdict;
import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.stats.Estimate;
import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.FaultCount;
import dev.ingestbench.contracts.MaxRateResult;
import dev.ingestbench.contracts.RoundSettings;
import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.WindowLatency;
import dev.ingestbench.contracts.job.TableSkew;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code summary.json}: every number of the round, with how it was measured. The first keys are the
 * contract other tools read; the rest add the spread, the window and the machine.
 */
public final class RoundSummaryJson {
  private RoundSummaryJson() {}

  public static RoundSummary of(RoundAnalysis a) {
    ConsumerResult c = a.consumer();
    Map<String, RoundSummary.PhaseWindow> phases = new LinkedHashMap<>();
    for (Phase p : a.phases()) {
      phases.put(
          p.name(),
          new RoundSummary.PhaseWindow(p.start().toString(), p.end().toString(), p.buckets()));
    }
    Map<String, Double> byProcess = null;
    if (a.steady().isPresent()) {
      Map<String, Double> seconds = new LinkedHashMap<>();
      a.processCpuSeconds(a.steady().get().start(), a.steady().get().end())
          .forEach((process, s) -> seconds.put(process, round4(s)));
      byProcess = seconds;
    }
    ConsumerResult.Latency all = c.latency();
    ConsumerResult.Latency live = a.liveLatency();
    ConsumerResult.Latency backlog = a.backlogLatency();
    WindowLatency.Percentiles intended = c.intendedLatency();
    MachineLoad load = RoundDiagnosis.steadyLoad(a);
    // A round's, not one job's of several (their machine and emulator are the round's) nor a
    // consumer's run alone.
    RoundLimit limit = a.round().isPresent() ? RoundLimit.of(a, load) : new RoundLimit(null, null);
    Optional<RoundLiveVerdict> livePhase =
        a.round().isPresent() && a.maxRate().isEmpty()
            ? RoundLiveVerdict.of(a, limit)
            : Optional.empty();
    return new RoundSummary(
        a.published(),
        c.rowsWritten(),
        c.distinctMessageIds(),
        c.duplicates(),
        c.deadLettered(),
        a.lost(),
        a.left(),
        round(a.steadyRowsPerSecond().mean()),
        round(a.steadyRowsPerSecond().mean() / a.vcpus()),
        round(a.rowsPerCpuSecond()),
        round4(a.steadyCpuUtilisation()),
        all == null ? null : all.p50Ms(),
        all == null ? null : all.p99Ms(),
        live == null ? null : live.p50Ms(),
        live == null ? null : live.p99Ms(),
        live == null ? 0 : live.samples(),
        backlog == null ? null : backlog.p50Ms(),
        backlog == null ? null : backlog.p99Ms(),
        c.caughtUpAt(),
        live == null ? liveLatencyNote(a) : null,
        // The Beam runner, and where it ran: a cluster round's job is not in the consumer JVM.
        a.onFlinkCluster() ? c.runner() + " on a Flink cluster" : c.runner(),
        c.writeMethod(),
        c.rowFormat(),
        c.destinationTables(),
        round4(a.steadyMbPerSecond().mean()),
        estimate(a.steadyRowsPerSecond()),
        estimate(a.steadyMbPerSecond()),
        round(a.activeRowsPerSecond()),
        a.activeSeconds(),
        a.publishFailures(),
        a.lost() == 0 && c.duplicates() == 0,
        c.stopReason(),
        c.peakAppendClients(),
        Math.round(a.peakConsumerHeapBytes() / 1e6),
        Math.round(c.maxHeapBytes() / 1e6),
        phases,
        byProcess,
        new RoundSummary.Measured(
            a.vcpus(),
            a.steady().map(p -> (long) p.buckets()).orElse(0L),
            round4(a.steadyCpuSeconds()),
            "per-second WRITE_API_TIMELINE buckets of the local BigQuery emulator; per-second process CPU of "
                + (a.onFlinkCluster() ? "the Flink TaskManagers" : "the consumer JVM(s)"),
            a.consumerCpuSource()
                + " / (vCPUs x seconds) over the steady window; publisher and emulator share the machine",
            "publish time (message attribute) to the second the row became visible; live = published after the"
                + " consumer caught up (every message published over "
                + ConsumerResult.CATCH_UP_LAG_SECONDS
                + " s earlier visible), see docs/methodology.md",
            a.round().orElse(null)),
        a.jobs(),
        a.peakConnections(),
        a.emulator().map(e -> e.connectionsRefused()).orElse(null),
        a.emulator().map(e -> e.throttledAppends()).orElse(null),
        a.emulator().map(e -> round4(e.throttledSeconds())).orElse(null),
        RoundDiagnosis.of(a).stream().map(Verdict::verdict).toList(),
        a.round().map(RoundSettings::runId).orElse(c.runId()),
        c.foreignRows(),
        c.deadLetterWriteFailures(),
        c.mismatchedRows(),
        c.mismatches() == null ? List.of() : c.mismatches(),
        a.maxRate().map(MaxRateResult::maxSustainableRowsPerSecond).orElse(null),
        a.maxRate().map(MaxRateResult::limitedBy).orElse(limit.name()),
        intended == null ? null : intended.p50Ms(),
        intended == null ? null : intended.p99Ms(),
        intended == null ? null : intended.p999Ms(),
        intended == null ? null : intended.maxMs(),
        intended == null ? 0 : intended.samples(),
        c.sourceDuplicates(),
        a.emulator()
            .map(e -> e.faults() == null ? List.<FaultCount>of() : e.faults())
            .orElse(List.of()),
        load.machineKnown() ? round4(load.busyShare()) : null,
        load.machineKnown() ? round4(load.otherShare()) : null,
        load.machineKnown() ? round4(load.stealShare()) : null,
        load.known() ? round4(load.pipelineShare()) : null,
        load.known() ? round4(load.harnessShare()) : null,
        a.maxRate().map(MaxRateResult::limitEvidence).orElse(limit.evidence()),
        livePhase.map(RoundLiveVerdict::name).orElse(null),
        livePhase.map(RoundLiveVerdict::evidence).orElse(null),
        RoundCost.of(a).map(RoundCost.Result::summary).orElse(null),
        c.tableSkew() == null ? TableSkew.UNIFORM.flag() : c.tableSkew(),
        c.misroutedRows(),
        c.misroutes() == null ? List.of() : c.misroutes(),
        DestinationFigures.of(a).orElse(null),
        QuotaRefusalFigures.of(a),
        round4(a.steadyJitShare()),
        round(a.rowsPerCpuSecondWithoutJit()));
  }

  /** Why there is no live latency, in words a user can act on. */
  static String liveLatencyNote(RoundAnalysis a) {
    long liveMessages = a.round().map(r -> r.liveMessages()).orElse(0L);
    if (a.fed()) {
      return "not measured: --feed publishes a backlog as the jobs read it, with no live traffic;"
          + " measure latency without --feed, with --live-messages N --live-rate R";
    }
    if (a.round().isPresent() && liveMessages == 0) {
      return "not measured: no live traffic (--live-messages 0); give --live-messages N --live-rate R";
    }
    if (a.jobs() > 1 && a.consumer().latency() == null) {
      return "per job only (percentiles of several jobs do not add up): see each job's summary.json";
    }
    if (a.consumer().caughtUpAt() == null) {
      return "not measured: no row became visible";
    }
    return "not measured: no message was published after the consumer caught up at "
        + a.consumer().caughtUpAt()
        + "; publish live traffic for longer (--live-messages) or at a rate the consumer can keep up with (--live-rate)";
  }

  private static RoundSummary.Estimate estimate(Estimate e) {
    return new RoundSummary.Estimate(
        round4(e.mean()), round4(e.stddev()), round4(e.ci95Low()), round4(e.ci95High()), e.n());
  }

  static Double round(double v) {
    return Double.isNaN(v) ? null : Math.round(v * 10) / 10.0;
  }

  static Double round4(double v) {
    return Double.isNaN(v) ? null : Math.round(v * 10_000) / 10_000.0;
  }
}
