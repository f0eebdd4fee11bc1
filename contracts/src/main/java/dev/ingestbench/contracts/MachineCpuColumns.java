package dev.ingestbench.contracts;

import java.util.List;

/**
 * Columns of {@code machine_cpu.csv}: the whole machine's CPU per second, from {@code /proc/stat},
 * beside what the run's own processes used ({@link ProcessCpuColumns}): the difference is other
 * work on the machine, which depresses every figure of the run without being the pipeline's.
 */
public final class MachineCpuColumns {
  public static final String EPOCH_SECOND = "epoch_second";

  /** CPU-seconds spent running anything (user, nice, system, irq, softirq), steal excluded. */
  public static final String BUSY_CPU_SECONDS = "busy_cpu_seconds";

  /** CPU-seconds the hypervisor gave to other machines while this one wanted to run. */
  public static final String STEAL_CPU_SECONDS = "steal_cpu_seconds";

  /** CPU-seconds of every kind, idle included: the vCPUs times the second's length. */
  public static final String TOTAL_CPU_SECONDS = "total_cpu_seconds";

  public static final List<String> ALL =
      List.of(EPOCH_SECOND, BUSY_CPU_SECONDS, STEAL_CPU_SECONDS, TOTAL_CPU_SECONDS);

  private MachineCpuColumns() {}

  /**
   * Whether {@code totalCpuSeconds} of {@code /proc/stat} over {@code seconds} can be this
   * machine's {@code vcpus}: in a container limited to fewer CPUs it counts the host's, of which no
   * share of ours can be read. Sampling edges may exceed vCPUs x seconds a little, never by a
   * host's worth.
   */
  public static boolean isThisMachine(double totalCpuSeconds, int vcpus, double seconds) {
    return vcpus > 0 && seconds > 0 && totalCpuSeconds <= vcpus * seconds * 1.25;
  }
}
