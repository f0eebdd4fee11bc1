package dev.ingestbench.analysis.cost;

import dev.ingestbench.analysis.plan.CapacityPlan;
import dev.ingestbench.analysis.plan.PlanRequest;
import java.util.Locale;

/** What a {@link CapacityPlan} would cost a month on Dataflow in one region. */
public final class PlanCost {
  /** Hours in Google's billing month. */
  public static final double HOURS_PER_MONTH = 730;

  private PlanCost() {}

  public static WorkloadCost of(CapacityPlan p, PriceFile prices, String region) {
    PlanRequest r = p.request();
    int workers = p.workersPerJob() * r.jobs();
    double seconds = HOURS_PER_MONTH * 3600;
    double read = p.sourceMbPerSecond() * 1e6 * seconds;
    return WorkloadCost.of(
        new Workload(
            "a month",
            HOURS_PER_MONTH,
            workers * r.machineVcpus(),
            String.format(Locale.ROOT, "%d workers × %d vCPUs", workers, r.machineVcpus()),
            r.machineVcpus(),
            MachineMemory.gbPerVcpu(r.machineType()),
            r.machineType(),
            read,
            read / r.jobs(),
            r.jobs(),
            p.writeMbPerSecond() * 1e6 * seconds,
            r.writeMethod().equals("exactly-once"),
            r.source().equals("pubsub")),
        prices,
        region);
  }
}
