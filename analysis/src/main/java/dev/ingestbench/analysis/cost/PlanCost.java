package dev.ingestbench.analysis.cost;

import dev.ingestbench.analysis.plan.CapacityPlan;
import dev.ingestbench.analysis.plan.PlanRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a {@link CapacityPlan} would cost a month on Dataflow in one region, a line per component
 * (docs/cost.md gives each formula): the workers' vCPUs, memory and disk for every hour, Streaming
 * Engine, the Storage Write API's ingestion and Pub/Sub's throughput; free tiers apart, never taken
 * off the total silently.
 *
 * @param lines every component, estimated or saying why not
 * @param freeTiers what the free tiers would take off, each its own line (negative dollars)
 */
public record PlanCost(
    String region, String prices, List<CostLine> lines, List<CostLine> freeTiers) {
  /** Hours in Google's billing month. */
  public static final double HOURS_PER_MONTH = 730;

  /** Disk Dataflow gives each Streaming Engine worker by default. */
  static final double DISK_GB_PER_WORKER = 30;

  /**
   * Bytes through Streaming Engine per byte read, exactly-once: the Beam blog's ~1 GB/s run read 7
   * TB from Pub/Sub and moved 25 TB through Streaming Engine (2024-01-03).
   */
  static final double EXACTLY_ONCE_SHUFFLE_FACTOR = 25.0 / 7;

  public static PlanCost of(CapacityPlan p, PriceFile prices, String region) {
    PlanRequest r = p.request();
    int workers = p.workersPerJob() * r.jobs();
    int vcpus = workers * r.machineVcpus();
    double gbPerVcpu = MachineMemory.gbPerVcpu(r.machineType());
    double seconds = HOURS_PER_MONTH * 3600;
    List<CostLine> lines = new ArrayList<>();
    List<CostLine> free = new ArrayList<>();
    lines.add(
        new CostLine(
            "Worker vCPUs",
            vcpus * HOURS_PER_MONTH,
            prices.require(Skus.DATAFLOW_VCPU, region),
            String.format(
                Locale.ROOT,
                "%d workers × %d vCPUs × %.0f h",
                workers,
                r.machineVcpus(),
                HOURS_PER_MONTH)));
    lines.add(
        new CostLine(
            "Worker memory",
            vcpus * gbPerVcpu * HOURS_PER_MONTH,
            prices.require(Skus.DATAFLOW_MEMORY, region),
            String.format(
                Locale.ROOT,
                "%d vCPUs × %s GB each (%s) × %.0f h",
                vcpus,
                trim(gbPerVcpu),
                r.machineType(),
                HOURS_PER_MONTH)));
    lines.add(
        new CostLine(
            "Worker disk",
            workers * DISK_GB_PER_WORKER * HOURS_PER_MONTH,
            prices.require(Skus.DATAFLOW_DISK, region),
            String.format(
                Locale.ROOT,
                "%d workers × %.0f GB (Streaming Engine's default) × %.0f h",
                workers,
                DISK_GB_PER_WORKER,
                HOURS_PER_MONTH)));
    double readBytes = p.sourceMbPerSecond() * 1e6 * seconds;
    lines.add(
        r.writeMethod().equals("exactly-once")
            ? new CostLine(
                "Streaming Engine (data processed)",
                readBytes * EXACTLY_ONCE_SHUFFLE_FACTOR / 1e9,
                prices.require(Skus.STREAMING_ENGINE_DATA, region),
                String.format(
                    Locale.ROOT,
                    "%.1f MB/s read × 25/7 (exactly-once shuffles: the Beam blog's 1 GB/s run moved"
                        + " 25 TB for 7 TB read) × a month",
                    p.sourceMbPerSecond()))
            : CostLine.notEstimated(
                "Streaming Engine",
                "at-least-once moves little through Streaming Engine, and no published run says"
                    + " how much"));
    lines.add(
        CostLine.notEstimated(
            "Streaming Engine (compute units)",
            "the other billing model: no published run gives compute units per MB/s that could"
                + " be read (docs/cost.md)"));
    Price write = prices.require(Skus.STORAGE_WRITE_API, region);
    double writeGib = p.writeMbPerSecond() * 1e6 * seconds / (1L << 30);
    lines.add(
        new CostLine(
            "Storage Write API ingestion",
            writeGib,
            write,
            String.format(
                Locale.ROOT,
                "%.1f MB/s written (rows with their metadata columns) × a month",
                p.writeMbPerSecond())));
    if (write.freePerMonth() > 0) {
      free.add(
          new CostLine(
              "Storage Write API, free each month per billing account",
              -Math.min(writeGib, write.freePerMonth()),
              write,
              "the first " + trim(write.freePerMonth()) + " GiB"));
    }
    if (r.source().equals("pubsub")) {
      Price pubsub = prices.require(Skus.PUBSUB_THROUGHPUT, region);
      double delivered = readBytes / Math.pow(2, 40);
      double published = delivered / r.jobs();
      lines.add(
          new CostLine(
              "Pub/Sub publish",
              published,
              pubsub,
              "one topic; requests of many messages, so the 1 KB minimum per request does not"
                  + " apply"));
      lines.add(
          new CostLine(
              "Pub/Sub delivery",
              delivered,
              pubsub,
              r.jobs() + " subscription(s), each delivering every message"));
      if (pubsub.freePerMonth() > 0) {
        free.add(
            new CostLine(
                "Pub/Sub, free each month per billing account",
                -Math.min(published + delivered, pubsub.freePerMonth()),
                pubsub,
                "the first 10 GiB"));
      }
    } else {
      lines.add(
          CostLine.notEstimated(
              "Kafka",
              "a Kafka cluster is priced by its brokers' vCPUs, memory and storage, not by"
                  + " throughput, and the price file's Managed Kafka prices are unconfirmed"));
    }
    return new PlanCost(region, prices.name(), List.copyOf(lines), List.copyOf(free));
  }

  /** Every estimated line. */
  public double usd() {
    return lines.stream().mapToDouble(CostLine::usd).sum();
  }

  /** {@link #usd} with the free tiers taken off. */
  public double usdAfterFreeTiers() {
    return usd() + freeTiers.stream().mapToDouble(CostLine::usd).sum();
  }

  /** The components left out of the total. */
  public List<String> notEstimated() {
    return lines.stream().filter(l -> !l.estimated()).map(CostLine::name).toList();
  }

  private static String trim(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
