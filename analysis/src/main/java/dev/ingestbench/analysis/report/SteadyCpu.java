package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.source.CpuSamplesCsv;
import dev.ingestbench.analysis.source.ProcessCpuCsv;
import dev.ingestbench.contracts.ProcessCpuColumns;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The pipeline's CPU over a round's steady window, and how many of the window's seconds it was
 * sampled in: the figure rows per CPU-second divides by.
 *
 * <p>Whose samples count: on a Flink cluster the TaskManagers' (the pipeline's tasks run there; the
 * consumer JVMs are job clients). Otherwise the consumer's own ({@code consumer_samples.csv}),
 * unless the round's per-process samples of its consumers ({@code processes_cpu.csv}) cover clearly
 * more of the window: a consumer started again (killed, or stopped with a savepoint) writes its own
 * samples afresh, so they hold its last life only, and a window that began in an earlier life would
 * otherwise divide every row it wrote by the last life's CPU alone.
 *
 * @param cpuSeconds CPU-seconds used in the window's sampled seconds
 * @param sampledSeconds the window's seconds that have a sample
 * @param source whose samples they are, in words
 * @param jitSeconds of those, what the consumer's JIT compiler threads used; NaN where a sampled
 *     second has no such figure (a run from before it was kept, a system without per-thread counts)
 *     or the CPU is not the consumer's own samples
 */
record SteadyCpu(double cpuSeconds, long sampledSeconds, String source, double jitSeconds) {
  static final String CONSUMER = "consumer JVM CPU-seconds";
  static final String TASKMANAGERS =
      "the Flink TaskManagers' CPU-seconds (every job's tasks; processes_cpu.csv)";
  static final String CONSUMER_PROCESSES =
      "consumer JVM CPU-seconds, every life's (processes_cpu.csv: a consumer was started again)";

  static SteadyCpu of(
      Phase steady, List<CpuSamplesCsv.Sample> own, List<ProcessCpuCsv.Sample> processes) {
    List<ProcessCpuCsv.Sample> taskManagers =
        processes.stream()
            .filter(p -> p.process().startsWith(ProcessCpuColumns.TASKMANAGER))
            .toList();
    if (!taskManagers.isEmpty()) {
      return ofProcesses(steady, taskManagers, TASKMANAGERS);
    }
    double cpu = 0;
    double jit = 0;
    long sampled = 0;
    for (CpuSamplesCsv.Sample s : own) {
      if (covers(steady, s.second().getEpochSecond())) {
        cpu += s.cpuSeconds();
        jit += s.jitCpuSeconds(); // NaN stays NaN
        sampled++;
      }
    }
    SteadyCpu consumers =
        ofProcesses(
            steady,
            processes.stream().filter(p -> MachineLoad.isPipeline(p.process())).toList(),
            CONSUMER_PROCESSES);
    // Clearly more, not a second or two: the two samplers' stamps differ by a second at the ends.
    boolean ownMissesALife = consumers.sampledSeconds() > sampled * 1.25 + 2;
    return ownMissesALife
        ? consumers
        : new SteadyCpu(cpu, sampled, CONSUMER, sampled == 0 ? Double.NaN : jit);
  }

  /** Summed over processes, each second of the window counted once. */
  private static SteadyCpu ofProcesses(
      Phase steady, List<ProcessCpuCsv.Sample> samples, String source) {
    double cpu = 0;
    Set<Long> seconds = new HashSet<>();
    for (ProcessCpuCsv.Sample s : samples) {
      long stamped = s.second().getEpochSecond();
      if (covers(steady, stamped)) {
        cpu += s.cpuSeconds();
        seconds.add(stamped);
      }
    }
    return new SteadyCpu(cpu, seconds.size(), source, Double.NaN);
  }

  /** A sample stamped at second t measured the CPU used during [t-1, t). */
  private static boolean covers(Phase steady, long stampedSecond) {
    long covered = stampedSecond - 1;
    return covered >= steady.start().getEpochSecond() && covered < steady.end().getEpochSecond();
  }
}
