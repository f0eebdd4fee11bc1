package dev.ingestbench.analysis.cost;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A {@link Workload}'s cost on Dataflow in one region, a line per component (docs/cost.md gives
 * each formula): the workers' vCPUs, memory and disk, Streaming Engine, the Storage Write API's
 * ingestion and Pub/Sub's throughput; free tiers apart, never taken off the total silently.
 *
 * @param prices the price file's name
 * @param lines every component, estimated or saying why not
 * @param freeTiers what the free tiers would take off, each its own line (negative dollars)
 */
public record WorkloadCost(
    String region, String prices, List<CostLine> lines, List<CostLine> freeTiers) {

  /** Disk Dataflow gives each Streaming Engine worker by default. */
  static final double DISK_GB_PER_WORKER = 30;

  /**
   * Bytes through Streaming Engine per byte read, exactly-once: the Beam blog's ~1 GB/s run read 7
   * TB from Pub/Sub and moved 25 TB through Streaming Engine (2024-01-03).
   */
  static final double EXACTLY_ONCE_SHUFFLE_FACTOR = 25.0 / 7;

  public static WorkloadCost of(Workload w, PriceFile prices, String region) {
    List<CostLine> lines = new ArrayList<>();
    List<CostLine> free = new ArrayList<>();
    double vcpuHours = w.vcpus() * w.hours();
    lines.add(
        new CostLine(
            "Worker vCPUs",
            vcpuHours,
            prices.require(Skus.DATAFLOW_VCPU, region),
            w.vcpusNote() + String.format(Locale.ROOT, " × %s h", hours(w.hours()))));
    lines.add(
        Double.isNaN(w.gbPerVcpu())
            ? CostLine.notEstimated(
                "Worker memory",
                w.machineType()
                    + ": its memory per vCPU is not known here (standard, highcpu and"
                    + " highmem types are)")
            : new CostLine(
                "Worker memory",
                vcpuHours * w.gbPerVcpu(),
                prices.require(Skus.DATAFLOW_MEMORY, region),
                String.format(
                    Locale.ROOT,
                    "%s vCPU-hours × %s GB each (%s)",
                    number(vcpuHours),
                    trim(w.gbPerVcpu()),
                    w.machineType())));
    lines.add(
        new CostLine(
            "Worker disk",
            w.workers() * DISK_GB_PER_WORKER * w.hours(),
            prices.require(Skus.DATAFLOW_DISK, region),
            String.format(
                Locale.ROOT,
                "%s workers × %.0f GB (Streaming Engine's default) × %s h",
                number(w.workers()),
                DISK_GB_PER_WORKER,
                hours(w.hours()))));
    lines.add(
        w.exactlyOnce()
            ? new CostLine(
                "Streaming Engine (data processed)",
                w.readBytes() * EXACTLY_ONCE_SHUFFLE_FACTOR / 1e9,
                prices.require(Skus.STREAMING_ENGINE_DATA, region),
                String.format(
                    Locale.ROOT,
                    "%s GB read × 25/7 (exactly-once shuffles: the Beam blog's 1 GB/s run moved 25"
                        + " TB for 7 TB read)",
                    number(w.readBytes() / 1e9)))
            : CostLine.notEstimated(
                "Streaming Engine (data processed)",
                "at-least-once moves little through Streaming Engine, and no published run says"
                    + " how much"));
    lines.add(
        CostLine.notEstimated(
            "Streaming Engine (compute units)",
            "the other billing model: no published run gives compute units per MB/s that could"
                + " be read (docs/cost.md)"));
    Price write = prices.require(Skus.STORAGE_WRITE_API, region);
    double writeGib = w.writtenBytes() / (1L << 30);
    lines.add(
        new CostLine(
            "Storage Write API ingestion",
            writeGib,
            write,
            String.format(
                Locale.ROOT,
                "%s GB written over %s (rows with their metadata columns)",
                number(w.writtenBytes() / 1e9),
                w.what())));
    if (write.freePerMonth() > 0) {
      free.add(freeTier("Storage Write API", writeGib, write, w.hours()));
    }
    if (w.pubsub()) {
      Price pubsub = prices.require(Skus.PUBSUB_THROUGHPUT, region);
      double published = w.publishedBytes() / Math.pow(2, 40);
      double delivered = w.readBytes() / Math.pow(2, 40);
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
              w.subscriptions() + " subscription(s), each delivering every message"));
      if (pubsub.freePerMonth() > 0) {
        free.add(freeTier("Pub/Sub", published + delivered, pubsub, w.hours()));
      }
    } else {
      lines.add(
          CostLine.notEstimated(
              "Kafka",
              "a Kafka cluster is priced by its brokers' vCPUs, memory and storage, not by"
                  + " throughput, and the price file's Managed Kafka prices are unconfirmed"));
    }
    return new WorkloadCost(region, prices.name(), List.copyOf(lines), List.copyOf(free));
  }

  /**
   * A free tier as a line of its own: a month's, or for a shorter stretch its share of the month
   * (the tier is per billing account and month, so an hour has 1/730 of it).
   */
  private static CostLine freeTier(String what, double used, Price price, double hours) {
    double share = Math.min(1, hours / PlanCost.HOURS_PER_MONTH);
    double free = price.freePerMonth() * share;
    return new CostLine(
        what + ", free each month per billing account",
        -Math.min(used, free),
        price,
        "the first "
            + trim(price.freePerMonth())
            + " "
            + price.unit().word()
            + " a month"
            + (share < 1
                ? String.format(Locale.ROOT, ", %.4g of it for %s h", free, hours(hours))
                : ""));
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

  private static String hours(double h) {
    return h >= 10 ? String.format(Locale.ROOT, "%,.0f", h) : String.format(Locale.ROOT, "%.4f", h);
  }

  private static String number(double v) {
    return v >= 100
        ? String.format(Locale.ROOT, "%,.0f", v)
        : String.format(Locale.ROOT, "%.2f", v);
  }

  static String trim(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
