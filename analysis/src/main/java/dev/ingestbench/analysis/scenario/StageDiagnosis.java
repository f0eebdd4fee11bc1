package dev.ingestbench.analysis.scenario;

import dev.ingestbench.analysis.diagnosis.Diagnoser;
import dev.ingestbench.analysis.diagnosis.Verdict;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.contracts.StepStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The bottleneck each stage of a local scenario shows, by the rules of {@link Diagnoser} judged
 * against what the scenario's BigQuery emulator enforced: CPU-bound (the jobs' consumers together
 * use at least 90% of the machine), the throughput quota (appends the emulator slowed, sawtooth per
 * second), the connection limit, and per-table contention (more jobs, less than 80% of proportional
 * throughput, with CPU spare and no quota or connection signal).
 */
final class StageDiagnosis {
  /** The share of all vCPUs every process used during the stage; NaN where nothing was recorded. */
  private static double machineShare(StepStatus s, Map<Long, Double> machineCpu, int vcpus) {
    long from = Instant.parse(s.startedAt()).getEpochSecond() + 1;
    long to = Instant.parse(s.endedAt()).getEpochSecond() + 1;
    double used = 0;
    int seconds = 0;
    for (long t = from; t < to; t++) {
      Double cpu = machineCpu.get(t);
      if (cpu != null) {
        used += cpu;
        seconds++;
      }
    }
    return seconds == 0 || vcpus <= 0 ? Double.NaN : used / ((double) seconds * vcpus);
  }

  private final Map<String, Map<String, StageMeasures>> byStage;
  private final List<ScenarioSample> samples;
  private final Map<Integer, EmulatorStatus> emulators;
  private final int vcpus;
  private final List<Verdict> verdicts = new ArrayList<>();

  /** Every process's share of the machine in each stage. */
  private final Map<String, Double> machineShare = new HashMap<>();

  /** Whether the jobs waited on the Pub/Sub emulator in each stage. */
  private final Map<String, Boolean> sourceBound = new HashMap<>();

  private StageDiagnosis(
      Map<String, Map<String, StageMeasures>> byStage,
      List<ScenarioSample> samples,
      Map<Integer, EmulatorStatus> emulators,
      int vcpus) {
    this.byStage = byStage;
    this.samples = samples;
    this.emulators = emulators;
    this.vcpus = vcpus;
  }

  /**
   * @param emulators each segment's emulator status at its end (segment number to status), where
   *     present
   * @param machineCpu CPU-seconds per epoch second of every process the run started (emulators,
   *     publishers, consumers: {@code processes_cpu.csv}); empty where not recorded
   * @param pubsubCpu the same, of the Pub/Sub emulator alone
   */
  static List<Verdict> of(
      List<StepStatus> steps,
      Map<String, Map<String, StageMeasures>> byStage,
      List<ScenarioSample> samples,
      Map<Integer, EmulatorStatus> emulators,
      Map<Long, Double> machineCpu,
      Map<Long, Double> pubsubCpu,
      int vcpus) {
    StageDiagnosis d = new StageDiagnosis(byStage, samples, emulators, vcpus);
    List<StepStatus> idle = d.idle(steps);
    List<StepStatus> measured = steps.stream().filter(s -> !idle.contains(s)).toList();
    for (StepStatus s : measured) {
      d.machineAndSource(s, machineCpu, pubsubCpu);
    }
    for (StepStatus s : measured) {
      d.consumersAndQuota(s);
    }
    d.emulatorLimits();
    boolean otherLimit = d.verdicts.size() > idle.size();
    for (int i = 1; i < measured.size(); i++) {
      d.scaling(measured.get(i - 1), measured.get(i), otherLimit);
    }
    if (d.verdicts.size() == idle.size() && !measured.isEmpty()) {
      d.verdicts.add(
          new Verdict(
              "No bottleneck signal",
              "consumers below "
                  + (int) (100 * Diagnoser.CPU_BOUND)
                  + "% of the machine's CPU, no quota throttling, connections below the limit, throughput scaled with jobs"));
    }
    return d.verdicts;
  }

  /**
   * A stage in which no running job wrote a row measured nothing: it is called idle, and no
   * bottleneck is read from it (an emulator at 0.01 vCPUs is not "busier" than idle consumers).
   */
  private List<StepStatus> idle(List<StepStatus> steps) {
    List<StepStatus> idle =
        steps.stream()
            .filter(s -> byStage.get(s.stage()).get(ResultRecord.ALL_JOBS).rows() == 0)
            .toList();
    for (StepStatus s : idle) {
      verdicts.add(
          new Verdict(
              "Idle in " + s.stage(),
              String.join(", ", s.jobs())
                  + (s.jobs().size() == 1 ? " wrote" : " together wrote")
                  + " no row in "
                  + s.stage()
                  + " (nothing to read, or still starting): no bottleneck is"
                  + " judged from it; give the jobs more to read, or hold the stage until: steady"));
    }
    return idle;
  }

  /** Whether the jobs waited on the Pub/Sub emulator, and whether the machine was CPU-bound. */
  private void machineAndSource(
      StepStatus s, Map<Long, Double> machineCpu, Map<Long, Double> pubsubCpu) {
    double share = machineShare(s, machineCpu, vcpus);
    machineShare.put(s.stage(), share);
    double pubsub = machineShare(s, pubsubCpu, 1);
    // Over the whole stage, as the emulator's share is: vCPUs the jobs' consumers used on
    // average.
    long from = Instant.parse(s.startedAt()).getEpochSecond() + 1;
    long to = Instant.parse(s.endedAt()).getEpochSecond() + 1;
    double consumers =
        samples.stream()
                .filter(
                    x ->
                        x.stage().equals(s.stage())
                            && x.epochSecond() >= from
                            && x.epochSecond() < to)
                .mapToDouble(ScenarioSample::cpuSeconds)
                .sum()
            / Math.max(1, to - from);
    sourceBound.put(s.stage(), pubsub > consumers);
    if (pubsub > consumers) {
      verdicts.add(
          new Verdict(
              "Limited by the local Pub/Sub emulator in " + s.stage(),
              String.format(
                  Locale.ROOT,
                  "the emulator used %.2f vCPUs, more than the jobs' consumers together (%.2f): its Pull slows as a"
                      + " subscription's backlog grows, so the jobs wait for messages; a publish rate instead of a large"
                      + " backlog measures the jobs rather than the emulator",
                  pubsub,
                  consumers)));
    }
    if (share >= Diagnoser.CPU_BOUND) {
      verdicts.add(
          new Verdict(
              "Machine CPU-bound in " + s.stage(),
              String.format(
                  Locale.ROOT,
                  "every process of the run (the source's emulator or broker, the BigQuery emulator, publishers or"
                      + " the feed, consumers) used %.0f%% of %d vCPUs: locally they share this machine's cores with the"
                      + " jobs, so the jobs' rates say more about this machine than about BigQuery",
                  100 * share,
                  vcpus)));
    }
  }

  /** Whether the stage's consumers were CPU-bound, and whether the quota sawed its rate. */
  private void consumersAndQuota(StepStatus s) {
    StageMeasures all = byStage.get(s.stage()).get(ResultRecord.ALL_JOBS);
    double share = vcpus > 0 ? all.vcpusBusy() / vcpus : Double.NaN;
    if (!Double.isNaN(share) && share >= Diagnoser.CPU_BOUND) {
      verdicts.add(
          new Verdict(
              "CPU-bound in " + s.stage(),
              String.format(
                  Locale.ROOT,
                  "the consumers of %s used %.2f of %d vCPUs (%.0f%%, ≥ %.0f%%) over their steady seconds",
                  String.join(", ", s.jobs()),
                  all.vcpusBusy(),
                  vcpus,
                  100 * share,
                  100 * Diagnoser.CPU_BOUND)));
    }
    Optional<EmulatorStatus> e = Optional.ofNullable(emulators.get(s.segment()));
    // Only where the segment's emulator throttled appends: its counters decide, the per-second
    // shape describes (noise alone saws). A quota that refuses (reject, two-tier) stops writing
    // while it refills, which saws too: its refusals are said by tier instead (emulatorLimits).
    if (e.isEmpty()
        || e.get().quotaMbPerSecond() <= 0
        || !e.get().quotaTiersOrEmpty().isEmpty()
        || (e.get().throttledAppends() == 0 && e.get().rejectedAppends() == 0)) {
      return;
    }
    long from = Instant.parse(s.startedAt()).getEpochSecond() + 1;
    long to = Instant.parse(s.endedAt()).getEpochSecond() + 1;
    List<ScenarioSample> ofStage =
        samples.stream().filter(x -> x.stage().equals(s.stage())).toList();
    int sawteeth =
        Diagnoser.sawteeth(JobSeconds.of(ofStage, null, from, to), e.get().quotaMbPerSecond());
    if (sawteeth >= 2) {
      verdicts.add(
          new Verdict(
              "Throttled by the throughput quota in " + s.stage() + " (sawtooth)",
              String.format(
                  Locale.ROOT,
                  "%d times a second above the quota, %.2f MB/s, was followed by one below"
                      + " %.2f MB/s (%.0f s window)",
                  sawteeth,
                  e.get().quotaMbPerSecond(),
                  0.5 * e.get().quotaMbPerSecond(),
                  e.get().quotaWindowSeconds())));
    }
  }

  /** Each segment's emulator: the quota reached, the connection limit reached. */
  private void emulatorLimits() {
    for (Map.Entry<Integer, EmulatorStatus> entry : emulators.entrySet()) {
      EmulatorStatus e = entry.getValue();
      if (e.throttledAppends() > 0 || e.rejectedAppends() > 0) {
        verdicts.add(
            new Verdict(
                "Reached the throughput quota (segment-" + entry.getKey() + ")",
                String.format(
                    Locale.ROOT,
                    "the emulator slowed %,d appends by %.1f s in all and refused %,d (quota %.2f MB/s per %.0f s"
                        + " window)%s",
                    e.throttledAppends(),
                    e.throttledSeconds(),
                    e.rejectedAppends(),
                    e.quotaMbPerSecond(),
                    e.quotaWindowSeconds(),
                    e.quotaRefusalsByTier().isEmpty()
                        ? ""
                        : "; refused by tier: " + e.quotaRefusalsByTier())));
      }
      if (e.connectionsRefused() > 0
          || e.peakConnections() >= Diagnoser.CONNECTIONS_NEAR * e.maxConnections()) {
        verdicts.add(
            new Verdict(
                "At the concurrent-connection limit (segment-" + entry.getKey() + ")",
                String.format(
                    Locale.ROOT,
                    "peak %,d open AppendRows streams of %,d allowed; %,d refused with RESOURCE_EXHAUSTED",
                    e.peakConnections(),
                    e.maxConnections(),
                    e.connectionsRefused())));
      }
    }
  }

  /**
   * Per-table contention from one stage to the next that runs more jobs: less than 80% of
   * proportional throughput with the machine's CPU spare and no other limit shown.
   */
  private void scaling(StepStatus before, StepStatus after, boolean otherLimit) {
    if (after.jobs().size() <= before.jobs().size()) {
      return;
    }
    StageMeasures a = byStage.get(before.stage()).get(ResultRecord.ALL_JOBS);
    StageMeasures b = byStage.get(after.stage()).get(ResultRecord.ALL_JOBS);
    List<String> silent =
        after.jobs().stream().filter(j -> byStage.get(after.stage()).get(j).rows() == 0).toList();
    if (!silent.isEmpty()) {
      verdicts.add(
          new Verdict(
              "Scaling from " + before.stage() + " to " + after.stage() + " not judged",
              String.join(", ", silent)
                  + " wrote no rows in "
                  + after.stage()
                  + " (a job starting up writes none):"
                  + " hold the stage longer, or start it with until: steady"));
      return;
    }
    double expected = (double) after.jobs().size() / before.jobs().size();
    double actual = b.rowsPerSecond().mean() / a.rowsPerSecond().mean();
    boolean machineSpare =
        !(machineShare.get(before.stage()) >= Diagnoser.CPU_BOUND)
            && !(machineShare.get(after.stage()) >= Diagnoser.CPU_BOUND)
            && !sourceBound.get(before.stage())
            && !sourceBound.get(after.stage());
    if (a.rows() > 0
        && actual < Diagnoser.SCALING_FLOOR * expected
        && !otherLimit
        && machineSpare) {
      verdicts.add(
          new Verdict(
              "Per-table contention (sub-linear scaling) from "
                  + before.stage()
                  + " to "
                  + after.stage(),
              String.format(
                  Locale.ROOT,
                  "%d job(s): %,.0f rows/s; %d jobs: %,.0f rows/s = %.2f× for"
                      + " %.2f× the jobs (< %.0f%%), the machine's CPU below 90%% where recorded, the jobs not waiting on the Pub/Sub emulator, no quota or connection signal",
                  before.jobs().size(),
                  a.rowsPerSecond().mean(),
                  after.jobs().size(),
                  b.rowsPerSecond().mean(),
                  actual,
                  expected,
                  100 * Diagnoser.SCALING_FLOOR)));
    }
  }
}
