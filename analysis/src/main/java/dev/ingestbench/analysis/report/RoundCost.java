package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.cost.CostLine;
import dev.ingestbench.analysis.cost.MachineMemory;
import dev.ingestbench.analysis.cost.PriceFile;
import dev.ingestbench.analysis.cost.Workload;
import dev.ingestbench.analysis.cost.WorkloadCost;
import dev.ingestbench.analysis.model.Bucket;
import dev.ingestbench.contracts.RoundSettings;
import dev.ingestbench.contracts.RunCost;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a local round's load would cost on Dataflow: an estimate from this machine's CPU per row
 * over the steady window (as if Dataflow's vCPUs did the rows at that cost, fully used), the bytes
 * the local BigQuery counted and the messages published (docs/cost.md). For the run, per hour at
 * the steady rate, and per billion rows.
 */
public final class RoundCost {
  /** The machine the estimate puts the rows on: the published Java rounds' and the plan's. */
  static final String MACHINE_TYPE = "n2-highcpu-8";

  static final String REGION = "us-central1";

  static final String BILLING_MODEL =
      "data processed (Streaming Engine's default); compute units not estimated";

  private RoundCost() {}

  /** At the project's list prices in {@link #REGION}. */
  public static Optional<Result> of(RoundAnalysis a) {
    return of(a, PriceFile.builtIn(), REGION);
  }

  /** The run's and an hour's cost; empty for a run without a round's settings or a CPU per row. */
  public static Optional<Result> of(RoundAnalysis a, PriceFile prices, String region) {
    Optional<RoundSettings> round = a.round();
    double rowsPerCpuSecond = a.rowsPerCpuSecond();
    long rows = a.consumer().rowsWritten();
    if (round.isEmpty() || !(rowsPerCpuSecond > 0) || rows == 0 || a.activeSeconds() <= 0) {
      return Optional.empty();
    }
    RoundSettings r = round.get();
    int size = r.messageSizeBytes();
    int jobs = r.jobCount();
    boolean exactlyOnce = a.consumer().writeMethod().equals("exactly-once");
    double written = a.perSecond().buckets().stream().mapToDouble(Bucket::bytes).sum();
    double runSeconds = a.activeSeconds();
    WorkloadCost run =
        WorkloadCost.of(
            workload(
                "the run",
                runSeconds / 3600,
                rows / rowsPerCpuSecond / runSeconds,
                String.format(
                    Locale.ROOT,
                    "%.3g vCPUs fully used (%,d rows ÷ %,.0f rows per consumer CPU-second, this"
                        + " machine's over the steady window, spread over the %,.0f s the run wrote)",
                    rows / rowsPerCpuSecond / runSeconds,
                    rows,
                    rowsPerCpuSecond,
                    runSeconds),
                rows * (double) size,
                jobs,
                written,
                exactlyOnce,
                !r.kafka()),
            prices,
            region);
    double rate = a.steadyRowsPerSecond().mean();
    WorkloadCost hour =
        WorkloadCost.of(
            workload(
                "an hour",
                1,
                rate / rowsPerCpuSecond,
                String.format(
                    Locale.ROOT,
                    "%.3g vCPUs fully used (%,.0f rows/s, the steady rate, ÷ %,.0f rows per"
                        + " consumer CPU-second)",
                    rate / rowsPerCpuSecond,
                    rate,
                    rowsPerCpuSecond),
                rate * 3600 * size,
                jobs,
                a.steadyMbPerSecond().mean() * 1e6 * 3600,
                exactlyOnce,
                !r.kafka()),
            prices,
            region);
    return Optional.of(new Result(run, hour, rows));
  }

  private static Workload workload(
      String what,
      double hours,
      double vcpus,
      String vcpusNote,
      double readBytes,
      int jobs,
      double written,
      boolean exactlyOnce,
      boolean pubsub) {
    return new Workload(
        what,
        hours,
        vcpus,
        vcpusNote,
        8,
        MachineMemory.gbPerVcpu(MACHINE_TYPE),
        MACHINE_TYPE,
        readBytes,
        readBytes / jobs,
        jobs,
        written,
        exactlyOnce,
        pubsub);
  }

  /** The run's cost, an hour's at the steady rate, and the rows the run wrote. */
  public record Result(WorkloadCost run, WorkloadCost hour, long rows) {
    public double usdPerBillionRows() {
      return run.usd() / rows * 1e9;
    }

    /** As {@code summary.json}'s {@code cost}. */
    public RunCost summary() {
      return new RunCost(
          run.usd(),
          hour.usd(),
          usdPerBillionRows(),
          run.region(),
          BILLING_MODEL,
          "an estimate of Dataflow from this machine's CPU per row (steady window) on "
              + MACHINE_TYPE
              + " workers fully used, the bytes the local BigQuery counted and the messages"
              + " published (docs/cost.md)",
          run.prices(),
          components(run.lines()),
          components(run.freeTiers()),
          run.notEstimated());
    }

    private static List<RunCost.Component> components(List<CostLine> lines) {
      return lines.stream()
          .map(
              l ->
                  l.estimated()
                      ? new RunCost.Component(
                          l.name(),
                          l.quantity(),
                          l.price().unit().word(),
                          l.price().usd(),
                          l.usd(),
                          l.price().source(),
                          l.price().sourceDate() == null ? null : l.price().sourceDate().toString(),
                          l.note())
                      : new RunCost.Component(
                          l.name(), null, null, null, null, null, null, l.note()))
          .toList();
    }
  }
}
