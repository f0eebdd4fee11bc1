package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.diagnosis.Diagnoser;
import dev.ingestbench.analysis.diagnosis.Verdict;
import dev.ingestbench.contracts.EmulatorStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The bottleneck a local round shows, judged against the limits its BigQuery emulator enforced
 * (which a round may have lowered) rather than BigQuery's defaults: the same rules as {@link
 * Diagnoser}, on per-second buckets, since a local round's quota window is seconds, not minutes.
 */
final class RoundDiagnosis {
  private RoundDiagnosis() {}

  static List<Verdict> of(RoundAnalysis a) {
    List<Verdict> verdicts = new ArrayList<>();
    if (!Double.isNaN(a.steadyCpuUtilisation())
        && a.steadyCpuUtilisation() >= Diagnoser.CPU_BOUND) {
      verdicts.add(
          new Verdict(
              "CPU-bound",
              String.format(
                  Locale.ROOT,
                  "consumer CPU %.0f%% of %d vCPUs over the steady window (≥ %.0f%%)",
                  100 * a.steadyCpuUtilisation(),
                  a.vcpus(),
                  100 * Diagnoser.CPU_BOUND)));
    }
    otherWork(a).ifPresent(verdicts::add);
    source(a).ifPresent(verdicts::add);
    machine(a).ifPresent(verdicts::add);
    if (a.emulator().isPresent()) {
      EmulatorStatus e = a.emulator().get();
      // The emulator counted what its quota did: those counters decide, and the rate's shape only
      // describes it (a per-second rate saws from noise alone when nothing was throttled).
      String refusedBy = e.quotaRefusalsByTier();
      if (!refusedBy.isEmpty()) {
        // A quota that refuses (reject, two-tier): its tiers say which one, and when.
        boolean regional =
            e.quotaTiersOrEmpty().stream()
                .anyMatch(t -> t.tier().equals("regional") && t.refusedAppends() > 0);
        verdicts.add(
            new Verdict(
                regional
                    ? "Refused by the regional throughput quota while it refilled"
                    : "Refused by the short-term (cell) throughput quota while it refilled",
                String.format(
                    Locale.ROOT,
                    "the emulator refused %,d appends with RESOURCE_EXHAUSTED: %s (the Quota"
                        + " refusals section says when)",
                    e.rejectedAppends(),
                    refusedBy)));
      } else if (e.throttledAppends() > 0 || e.rejectedAppends() > 0) {
        int sawteeth =
            e.quotaMbPerSecond() > 0 ? Diagnoser.sawteeth(a.perSecond(), e.quotaMbPerSecond()) : 0;
        verdicts.add(
            new Verdict(
                sawteeth >= 2
                    ? "Throttled by the regional throughput quota (sawtooth)"
                    : "Reached the regional throughput quota",
                String.format(
                    Locale.ROOT,
                    "the emulator slowed %,d appends by %.1f s in all and refused %,d (quota %.2f MB/s per %.0f s"
                        + " window)%s",
                    e.throttledAppends(),
                    e.throttledSeconds(),
                    e.rejectedAppends(),
                    e.quotaMbPerSecond(),
                    e.quotaWindowSeconds(),
                    sawteeth >= 2
                        ? String.format(
                            Locale.ROOT,
                            "; %d times a second above the quota was followed by one below %.2f MB/s",
                            sawteeth,
                            0.5 * e.quotaMbPerSecond())
                        : "")));
      }
      if (e.connectionsRefused() > 0
          || e.peakConnections() >= Diagnoser.CONNECTIONS_NEAR * e.maxConnections()) {
        verdicts.add(
            new Verdict(
                "At the concurrent-connection limit",
                String.format(
                    Locale.ROOT,
                    "peak %,d open AppendRows streams of %,d allowed; %,d refused with RESOURCE_EXHAUSTED",
                    e.peakConnections(),
                    e.maxConnections(),
                    e.connectionsRefused())));
      }
    }
    consumerGroups(a).ifPresent(verdicts::add);
    if (verdicts.isEmpty()) {
      MachineLoad load = steadyLoad(a);
      verdicts.add(
          new Verdict(
              "No bottleneck signal",
              "consumer CPU below "
                  + (int) (100 * Diagnoser.CPU_BOUND)
                  + "%"
                  + (load.known() ? ", " + load.describe() : "")
                  + ", no quota throttling, connections below the limit"));
    }
    return verdicts;
  }

  /**
   * Other work on the machine (other processes, or a hypervisor's steal) took a share of it that
   * depresses every figure of the run: said first, since it is about the machine, not the pipeline.
   */
  static Optional<Verdict> otherWork(RoundAnalysis a) {
    MachineLoad load = steadyLoad(a);
    if (!load.known() || !load.disturbed()) {
      return Optional.empty();
    }
    return Optional.of(
        new Verdict(
            String.format(
                Locale.ROOT,
                "Other work on the machine: %.0f%% of %d vCPUs",
                100 * (load.otherShare() + load.stealShare()),
                load.vcpus()),
            String.format(
                Locale.ROOT,
                "%s over the %d s steady window (machine_cpu.csv against processes_cpu.csv, ≥ %.0f%%):"
                    + " this run's rates are lower and its latencies higher than the pipeline's on a quiet"
                    + " machine; run it again on one to measure the pipeline",
                load.describe(),
                load.seconds(),
                100 * MachineLoad.DISTURBED)));
  }

  /**
   * The Pub/Sub emulator at its ceiling ({@link RoundLimit#source}): the drain measured the
   * emulator, not the pipeline.
   */
  static Optional<Verdict> source(RoundAnalysis a) {
    MachineLoad load = steadyLoad(a);
    return RoundLimit.source(
            load, a.steadyCpuUtilisation(), a.vcpus(), a.fed(), RoundLimit.window(load))
        .map(limit -> new Verdict("Source-bound: the Pub/Sub emulator", limit.evidence()));
  }

  static MachineLoad steadyLoad(RoundAnalysis a) {
    return a.steady()
        .map(p -> MachineLoad.of(a, p.start(), p.end()))
        .orElse(new MachineLoad(a.vcpus(), 0, Map.of()));
  }

  /**
   * The machine, not the pipeline, set the rate: every process of the round together kept at least
   * 90% of the vCPUs busy over the steady window. Says which share was the harness, which on
   * Dataflow runs elsewhere.
   */
  static Optional<Verdict> machine(RoundAnalysis a) {
    MachineLoad load = steadyLoad(a);
    if (!load.known() || load.busyShare() < Diagnoser.CPU_BOUND) {
      return Optional.empty();
    }
    return Optional.of(
        new Verdict(
            String.format(
                Locale.ROOT,
                "Machine-bound: %.0f%% of %d vCPUs",
                100 * load.busyShare(),
                load.vcpus()),
            String.format(
                Locale.ROOT,
                "%s over the %d s steady window (≥ %.0f%%); the harness (emulators, broker,"
                    + " publishers) used %.1f%% of the machine and the pipeline %.1f%%: on Dataflow the harness runs"
                    + " elsewhere, so this rate is this machine's, not a limit of the pipeline or of BigQuery",
                load.describe(),
                load.seconds(),
                100 * Diagnoser.CPU_BOUND,
                100 * load.harnessShare(),
                100 * load.pipelineShare())));
  }

  /**
   * What the jobs of a multi-job Kafka round read, judged against how KafkaIO uses a consumer
   * group: it assigns every partition to its own readers ({@code consumer.assign}), so a group
   * never splits partitions between jobs; the group only holds committed offsets, where a job
   * without a checkpoint starts.
   */
  static Optional<Verdict> consumerGroups(RoundAnalysis a) {
    var round = a.round().orElse(null);
    if (round == null || !round.kafka() || a.jobResults().size() < 2) {
      return Optional.empty();
    }
    long published = a.published();
    StringBuilder read = new StringBuilder();
    long fewest = Long.MAX_VALUE;
    for (RoundAnalysis.JobResult job : a.jobResults()) {
      long distinct = job.result().distinctMessageIds();
      fewest = Math.min(fewest, distinct);
      read.append(read.length() == 0 ? "" : ", ")
          .append(
              String.format(
                  Locale.ROOT,
                  "%s read %,d of %,d (%.1f%%)",
                  job.job(),
                  distinct,
                  published,
                  published == 0 ? 0 : 100.0 * distinct / published));
    }
    boolean shared = "shared".equals(round.consumerGroups());
    String how =
        "; KafkaIO assigns every partition to its own readers (consumer.assign), so a consumer group"
            + " does not split partitions between jobs: it only holds the committed offsets a job without a"
            + " checkpoint starts from";
    if (fewest >= 0.99 * published) {
      return Optional.of(
          new Verdict(
              shared
                  ? "Sharing one consumer group did not split the partitions: every job read every record"
                  : "Each job in its own consumer group read every record",
              read + how));
    }
    return Optional.of(
        new Verdict(
            shared
                ? "A job in the shared consumer group missed records (started at the group's committed offsets)"
                : "A job read fewer records than were published",
            read + how));
  }
}
