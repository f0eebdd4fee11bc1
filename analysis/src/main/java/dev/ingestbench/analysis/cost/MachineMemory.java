package dev.ingestbench.analysis.cost;

import java.util.Locale;

/**
 * A Compute Engine machine type's memory per vCPU, which Dataflow bills per GB-hour beside the
 * vCPUs: read from the type's class (standard, highcpu, highmem), N1 apart.
 */
public final class MachineMemory {
  private MachineMemory() {}

  /** GB per vCPU of {@code machineType}, e.g. n2-highcpu-8: 1; refused for a class not known. */
  public static double gbPerVcpu(String machineType) {
    String[] parts = machineType.toLowerCase(Locale.ROOT).split("-");
    boolean n1 = parts[0].equals("n1");
    String kind = parts.length >= 2 ? parts[1] : "";
    return switch (kind) {
      case "standard" -> n1 ? 3.75 : 4;
      case "highcpu" -> n1 ? 0.9 : 1;
      case "highmem" -> n1 ? 6.5 : 8;
      default ->
          throw new IllegalArgumentException(
              "--machine-type "
                  + machineType
                  + ": its memory is not known for a cost (standard, highcpu and highmem types"
                  + " are); give one of those, e.g. n2-highcpu-8");
    };
  }
}
