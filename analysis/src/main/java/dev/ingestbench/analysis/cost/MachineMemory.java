package dev.ingestbench.analysis.cost;

import java.util.Locale;

/**
 * A Compute Engine machine type's memory per vCPU, which Dataflow bills per GB-hour beside the
 * vCPUs: read from the type's class (standard, highcpu, highmem), N1 apart.
 */
public final class MachineMemory {
  private MachineMemory() {}

  /** Families whose highcpu types have 2 GB per vCPU, not 1. */
  private static final java.util.Set<String> HIGHCPU_2GB =
      java.util.Set.of("c2d", "c3", "c3d", "c4", "c4a", "c4d", "n4");

  /**
   * GB per vCPU of {@code machineType}, e.g. n2-highcpu-8: 1; NaN for a class whose memory is not
   * known here (custom, ultramem, ...): its memory is then not estimated, rather than guessed.
   */
  public static double gbPerVcpu(String machineType) {
    String[] parts = machineType.toLowerCase(Locale.ROOT).split("-");
    boolean n1 = parts[0].equals("n1");
    String kind = parts.length >= 2 ? parts[1] : "";
    return switch (kind) {
      case "standard" -> n1 ? 3.75 : 4;
      case "highcpu" -> n1 ? 0.9 : HIGHCPU_2GB.contains(parts[0]) ? 2 : 1;
      case "highmem" -> n1 ? 6.5 : 8;
      default -> Double.NaN;
    };
  }
}
