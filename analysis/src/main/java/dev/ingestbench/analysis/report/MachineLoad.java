package dev.ingestbench.analysis.report;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the processes of a local round used of the machine over a window ({@code
 * processes_cpu.csv}): in all, and split into the pipeline (the consumers) and the harness that
 * stands in for Google's services (the emulators, the broker, the publishers), which on Dataflow
 * runs elsewhere.
 *
 * @param vcpus the machine's vCPUs
 * @param seconds the window's length
 * @param cpuSeconds CPU-seconds per process name over the window, in the order they first appear
 */
public record MachineLoad(int vcpus, long seconds, Map<String, Double> cpuSeconds) {

  /** The load over [from, to) of round {@code a}; empty CPU when the round recorded none. */
  static MachineLoad of(RoundAnalysis a, Instant from, Instant to) {
    return new MachineLoad(
        a.vcpus(),
        Math.max(0, to.getEpochSecond() - from.getEpochSecond()),
        a.processCpuSeconds(from, to));
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
    return process.startsWith("consumer") || process.startsWith(TASKMANAGER);
  }

  /** processes_cpu.csv's name of a Flink cluster's TaskManager N: taskmanager-N. */
  public static final String TASKMANAGER = "taskmanager-";

  /** A process's role as a reader names it; the consumers of several jobs or lives are one role. */
  static String role(String process) {
    if (process.startsWith(TASKMANAGER)) {
      return "Flink TaskManagers (the consumers)";
    }
    if (isPipeline(process)) {
      return "consumer";
    }
    if (process.startsWith("flink-client")) {
      return "Flink job clients";
    }
    return switch (process) {
      case "flink-jobmanager" -> "Flink JobManager";
      case "emulator" -> "Pub/Sub emulator";
      case "bigquery-emulator" -> "BigQuery emulator";
      case "kafka" -> "Kafka broker";
      case "live-publisher" -> "live publisher";
      default -> process;
    };
  }
}
