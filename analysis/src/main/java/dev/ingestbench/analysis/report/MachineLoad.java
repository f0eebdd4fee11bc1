package dev.ingestbench.analysis.report;

import dev.ingestbench.contracts.MachineCpuColumns;
import dev.ingestbench.contracts.ProcessCpuColumns;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the machine did over a window: what the processes of a local round used ({@code
 * processes_cpu.csv}), split into the pipeline (the consumers) and the harness that stands in for
 * Google's services (the emulators, the broker, the publishers), which on Dataflow runs elsewhere;
 * and what the whole machine used ({@code machine_cpu.csv}), so that other work and steal, which
 * depress every figure of the run, are seen instead of read as the pipeline's.
 *
 * @param vcpus the machine's vCPUs
 * @param seconds the window's length
 * @param cpuSeconds CPU-seconds per process name over the window, in the order they first appear
 * @param machine the whole machine's busy (steal excluded), steal and total CPU-seconds over the
 *     window; null when not recorded
 */
public record MachineLoad(
    int vcpus, long seconds, Map<String, Double> cpuSeconds, double[] machine) {

  /**
   * Other processes or steal above this share of the machine depress the run's figures enough to
   * say so: on 2 vCPUs, a fifth of a core.
   */
  public static final double DISTURBED = 0.10;

  /** A load whose whole-machine CPU was not recorded. */
  public MachineLoad(int vcpus, long seconds, Map<String, Double> cpuSeconds) {
    this(vcpus, seconds, cpuSeconds, null);
  }

  /** The load over [from, to) of round {@code a}; empty CPU when the round recorded none. */
  static MachineLoad of(RoundAnalysis a, Instant from, Instant to) {
    return new MachineLoad(
        a.vcpus(),
        Math.max(0, to.getEpochSecond() - from.getEpochSecond()),
        a.processCpuSeconds(from, to),
        a.machineCpuSeconds(from, to));
  }

  /**
   * Whether the whole machine's CPU was recorded over the window and is this machine's: in a
   * container limited to fewer CPUs, {@code /proc/stat} counts the host's, which no share of these
   * vCPUs can be read from.
   */
  public boolean machineKnown() {
    return machine != null && MachineCpuColumns.isThisMachine(machine[2], vcpus, seconds);
  }

  /**
   * The share of the vCPUs the machine was busy or stolen from: everything that was not idle; the
   * run's own processes when the machine's CPU was not recorded.
   */
  public double busyShare() {
    return machineKnown() ? of(machine[0] + machine[1]) : share();
  }

  /** What processes other than the run's used; NaN when the machine's CPU was not recorded. */
  public double otherShare() {
    return machineKnown() ? Math.max(0, of(machine[0]) - share()) : Double.NaN;
  }

  /** What the hypervisor took; NaN when not recorded. */
  public double stealShare() {
    return machineKnown() ? of(machine[1]) : Double.NaN;
  }

  /** Other work or steal took enough of the machine to depress the run's figures. */
  public boolean disturbed() {
    return machineKnown() && otherShare() + stealShare() >= DISTURBED;
  }

  /**
   * "the machine 97% busy: this run's processes 81% (consumer 38%, ...), other processes 16%, steal
   * 0%", or, without the machine's CPU, "the machine 81% busy (consumer 38%, ...)".
   */
  public String describe() {
    if (!machineKnown()) {
      return String.format(Locale.ROOT, "the machine %.0f%% busy (%s)", 100 * share(), breakdown());
    }
    return String.format(
        Locale.ROOT,
        "the machine %.0f%% busy: this run's processes %.0f%% (%s), other processes %.0f%%, steal"
            + " %.0f%%",
        100 * busyShare(),
        100 * share(),
        breakdown(),
        100 * otherShare(),
        100 * stealShare());
  }

  public boolean known() {
    return vcpus > 0 && seconds > 0 && !cpuSeconds.isEmpty();
  }

  /** The share of all vCPUs every process used together. */
  public double share() {
    return of(cpuSeconds.values().stream().mapToDouble(Double::doubleValue).sum());
  }

  /** The share the consumers used: the pipeline itself. */
  public double pipelineShare() {
    return of(
        cpuSeconds.entrySet().stream()
            .filter(e -> isPipeline(e.getKey()))
            .mapToDouble(Map.Entry::getValue)
            .sum());
  }

  /**
   * The share of everything else: what stands in for Pub/Sub, Kafka and BigQuery, and the
   * publishers.
   */
  public double harnessShare() {
    return share() - pipelineShare();
  }

  /**
   * "consumer 64%, Pub/Sub emulator 25%, BigQuery emulator 5%": each role's share, largest first.
   */
  public String breakdown() {
    Map<String, Double> byRole = new LinkedHashMap<>();
    cpuSeconds.forEach((process, cpu) -> byRole.merge(role(process), cpu, Double::sum));
    List<Map.Entry<String, Double>> roles = new ArrayList<>(byRole.entrySet());
    roles.sort(Map.Entry.<String, Double>comparingByValue().reversed());
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, Double> role : roles) {
      parts.add(String.format(Locale.ROOT, "%s %.0f%%", role.getKey(), 100 * of(role.getValue())));
    }
    return String.join(", ", parts);
  }

  private double of(double cpu) {
    return cpu / ((double) vcpus * seconds);
  }

  /**
   * Where the pipeline's code runs: the consumers' JVMs, or the TaskManagers of a Flink cluster
   * (whose job clients only submit and watch).
   */
  static boolean isPipeline(String process) {
    return process.startsWith("consumer") || process.startsWith(ProcessCpuColumns.TASKMANAGER);
  }

  /** A process's role as a reader names it; the consumers of several jobs or lives are one role. */
  static String role(String process) {
    if (process.startsWith(ProcessCpuColumns.TASKMANAGER)) {
      return "Flink TaskManagers (the consumers)";
    }
    if (isPipeline(process)) {
      return "consumer";
    }
    if (process.startsWith(ProcessCpuColumns.FLINK_CLIENT)) {
      return "Flink job clients";
    }
    if (process.equals(ProcessCpuColumns.SELF)) {
      return "ingestbench itself";
    }
    return switch (process) {
      case ProcessCpuColumns.FLINK_JOBMANAGER -> "Flink JobManager";
      case ProcessCpuColumns.SELF_FEEDING_PUBSUB, ProcessCpuColumns.SELF_FEEDING_KAFKA ->
          "ingestbench itself, feeding the source";
      case ProcessCpuColumns.PUBSUB_EMULATOR -> "Pub/Sub emulator";
      case ProcessCpuColumns.BIGQUERY_EMULATOR -> "BigQuery emulator";
      case ProcessCpuColumns.KAFKA_BROKER -> "Kafka broker";
      case ProcessCpuColumns.LIVE_PUBLISHER -> "live publisher";
      case ProcessCpuColumns.SELF_PUBLISHING_LIVE -> "ingestbench itself, publishing live";
      default -> process;
    };
  }
}
