package dev.ingestbench.contracts;

import java.util.List;

/**
 * Columns of {@code processes_cpu.csv}: CPU-seconds per second of every process a round started.
 */
public final class ProcessCpuColumns {
  public static final String EPOCH_SECOND = "epoch_second";
  public static final String PROCESS = "process";
  public static final String CPU_SECONDS = "cpu_seconds";

  /**
   * The process name of the JVM that runs the round or scenario itself: part of the harness, and
   * otherwise counted as other work on the machine.
   */
  public static final String SELF = "ingestbench";

  public static final List<String> ALL = List.of(EPOCH_SECOND, PROCESS, CPU_SECONDS);

  private ProcessCpuColumns() {}
}
