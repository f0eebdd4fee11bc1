package dev.ingestbench.analysis.plan;

import java.util.List;

/**
 * What {@link PlanRequest} needs, and every limit it would meet.
 *
 * @param vcpusPerJob the CPU the rows cost at {@link PlanRequest#cpuTarget()}, in vCPUs
 * @param workersPerJob whole machines of {@link PlanRequest#machineType()} that give them
 * @param writeMbPerSecond every job together, into the Storage Write API (a row is its message and
 *     the metadata columns, as the published timelines measured them)
 * @param quotaShare {@link #writeMbPerSecond} over the region's quota
 * @param sourceMbPerSecond what the source delivers, every job reading its own subscription or
 *     consumer group
 * @param connectionsLow every job together, the fewest Storage Write API connections expected
 * @param connectionsHigh the most (the same as {@code connectionsLow} when the count is exact)
 * @param connectionsBasis why, and from which measurement
 * @param warnings one sentence per limit the plan meets or comes near, with what to do
 */
public record CapacityPlan(
    PlanRequest request,
    PerRowCost perRow,
    double vcpusPerJob,
    int workersPerJob,
    double writeMbPerSecond,
    double quotaShare,
    double sourceMbPerSecond,
    long connectionsLow,
    long connectionsHigh,
    String connectionsBasis,
    List<String> warnings) {

  /** The Storage Write API's concurrent connections per project and region (default quota). */
  public static final long CONNECTION_LIMIT = 1_000;
}
