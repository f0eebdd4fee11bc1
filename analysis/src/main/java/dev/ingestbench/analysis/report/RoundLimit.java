package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.diagnosis.Diagnoser;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.ProcessCpuColumns;
import java.util.Locale;
import java.util.Optional;

/**
 * What limited a round, named as the max-rate search names its limits ({@code quota} and {@code
 * connections} from the BigQuery emulator's counts over the round; {@code consumer-cpu}, {@code
 * machine-cpu}, {@code source-emulator}, {@code sink} and {@code checkpoints} over its steady
 * window), with the figures that name it; {@code unknown} only where none of them showed, saying
 * what was measured and what is not recorded. A drain is always limited by something: this says
 * which, so that two settings are compared knowing what each ran into.
 *
 * @param name the limit, as {@code summary.json}'s {@code limited_by}
 * @param evidence its figures, as {@code limited_by_evidence}
 */
public record RoundLimit(String name, String evidence) {
  /**
   * A source server using this many cores is at its ceiling: the Pub/Sub emulator (pstest) serves
   * every call under one lock, so one core is all it can use. Measured draining 1,000,000 messages
   * held at once before the project's build stopped pstest sweeping the whole subscription on every
   * Pull: 0.85 and 0.86 cores, the consumer at 24-26% of the machine (docs/local-mode.md).
   */
  static final double SOURCE_BOUND_CORES = 0.8;

  /** Tables made as the write reaches them, at least this many, can be what the round waited on. */
  static final int TABLE_CREATION_MIN_TABLES = 10;

  /**
   * CREATE_IF_NEEDED: when the last of the round's tables had its first row only after half of the
   * drain had passed, the round waited on Beam making its tables (a failed first append, tables.get
   * and insert, a backoff of about half a second, one table after another in each writing thread),
   * whatever its CPU shows.
   */
  static Optional<RoundLimit> tableCreation(RoundAnalysis a) {
    return DestinationFigures.of(a)
        .filter(
            d ->
                "if-needed".equals(d.tableCreation())
                    && d.tables() >= TABLE_CREATION_MIN_TABLES
                    && d.allTablesSeconds() != null
                    && a.activeSeconds() > 0
                    && d.allTablesSeconds() >= 0.5 * a.activeSeconds())
        .map(
            d ->
                new RoundLimit(
                    "table-creation",
                    String.format(
                        Locale.ROOT,
                        "the last of %,d tables made as the write reached each (CREATE_IF_NEEDED)"
                            + " had its first row %.0f s after the consumer started, with the"
                            + " rows written over %,d s: Beam fails each table's first append,"
                            + " calls tables.get and tables.insert and backs off about half a"
                            + " second, one table after another in each writing thread"
                            + " (docs/destinations.md); --create-tables ahead makes them first",
                        d.tables(),
                        d.allTablesSeconds(),
                        a.activeSeconds())));
  }

  static RoundLimit of(RoundAnalysis a) {
    return of(a, RoundDiagnosis.steadyLoad(a));
  }

  /**
   * With the steady window's load, already computed: the first limit whose evidence shows, in the
   * order a limit hides the ones after it (a refusing sink before a busy CPU, a busy machine before
   * a slow source).
   */
  static RoundLimit of(RoundAnalysis a, MachineLoad load) {
    if (a.steady().isEmpty()) {
      return new RoundLimit(
          "unknown", "no steady window: the round wrote too briefly to measure what limited it");
    }
    String window = window(load);
    return quota(a.emulator())
        .or(() -> connections(a.emulator()))
        .or(() -> tableCreation(a))
        .or(() -> consumerCpu(a, window))
        .or(() -> machineCpu(a, load, window))
        .or(() -> source(load, a.steadyCpuUtilisation(), a.vcpus(), a.fed(), window))
        .or(() -> sink(a, window))
        .or(() -> checkpoints(a, window))
        .orElseGet(() -> unknown(a, load, window));
  }

  /** The BigQuery emulator's throughput quota refused or slowed appends. */
  private static Optional<RoundLimit> quota(Optional<EmulatorStatus> emulator) {
    if (emulator.isEmpty()) {
      return Optional.empty();
    }
    EmulatorStatus e = emulator.get();
    if (!e.quotaRefusalsByTier().isEmpty()) {
      return Optional.of(
          new RoundLimit(
              "quota",
              String.format(
                  Locale.ROOT,
                  "the BigQuery emulator's throughput quota refused %,d appends while it refilled:"
                      + " %s",
                  e.rejectedAppends(),
                  e.quotaRefusalsByTier())));
    }
    if (e.throttledAppends() > 0 || e.rejectedAppends() > 0) {
      return Optional.of(
          new RoundLimit(
              "quota",
              String.format(
                  Locale.ROOT,
                  "the BigQuery emulator's throughput quota slowed %,d appends by %.1f s in all and"
                      + " refused %,d (%.2f MB/s per %.0f s window)",
                  e.throttledAppends(),
                  e.throttledSeconds(),
                  e.rejectedAppends(),
                  e.quotaMbPerSecond(),
                  e.quotaWindowSeconds())));
    }
    return Optional.empty();
  }

  /** The BigQuery emulator refused AppendRows streams over its connection limit. */
  private static Optional<RoundLimit> connections(Optional<EmulatorStatus> emulator) {
    return emulator
        .filter(e -> e.connectionsRefused() > 0)
        .map(
            e ->
                new RoundLimit(
                    "connections",
                    String.format(
                        Locale.ROOT,
                        "peak %,d open AppendRows streams of %,d allowed; %,d refused",
                        e.peakConnections(),
                        e.maxConnections(),
                        e.connectionsRefused())));
  }

  /** The consumers used nearly all the vCPUs they may. */
  private static Optional<RoundLimit> consumerCpu(RoundAnalysis a, String window) {
    if (Double.isNaN(a.steadyCpuUtilisation()) || a.steadyCpuUtilisation() < Diagnoser.CPU_BOUND) {
      return Optional.empty();
    }
    return Optional.of(
        new RoundLimit(
            "consumer-cpu",
            String.format(
                Locale.ROOT,
                "the consumers used %.0f%% of %d vCPUs (≥ %.0f%%)%s%s",
                100 * a.steadyCpuUtilisation(),
                a.vcpus(),
                100 * Diagnoser.CPU_BOUND,
                window,
                jit(a))));
  }

  /** Other work took the machine, or the machine was busy with this run's own processes. */
  private static Optional<RoundLimit> machineCpu(RoundAnalysis a, MachineLoad load, String window) {
    if (!load.known()) {
      return Optional.empty();
    }
    if (load.disturbed()) {
      return Optional.of(
          new RoundLimit(
              "machine-cpu",
              String.format(
                  Locale.ROOT,
                  "other work took %.0f%% of the machine (%s)%s: this run's figures are the busy"
                      + " machine's",
                  100 * (load.otherShare() + load.stealShare()),
                  load.describe(),
                  window)));
    }
    if (load.busyShare() < Diagnoser.CPU_BOUND) {
      return Optional.empty();
    }
    return Optional.of(
        new RoundLimit(
            "machine-cpu",
            String.format(
                Locale.ROOT,
                "%s%s: the harness used %.1f%% of the machine and the pipeline %.1f%%%s",
                load.describe(),
                window,
                100 * load.harnessShare(),
                100 * load.pipelineShare(),
                jit(a))));
  }

  /** The sink's round trips set the pace. */
  private static Optional<RoundLimit> sink(RoundAnalysis a, String window) {
    SinkTimes sink = SinkTimes.of(a);
    if (!sink.bound()) {
      return Optional.empty();
    }
    return Optional.of(
        new RoundLimit(
            "sink",
            sink.describe()
                + String.format(
                    Locale.ROOT,
                    " (≥ %.0f%%: a connection's appends are answered one after another, so the"
                        + " sink set the pace) while the consumers used %s of %d vCPUs%s",
                    100 * SinkTimes.SINK_BOUND,
                    consumersShare(a.steadyCpuUtilisation()),
                    a.vcpus(),
                    window)));
  }

  /** Checkpoints ran back to back. */
  private static Optional<RoundLimit> checkpoints(RoundAnalysis a, String window) {
    return CheckpointTimes.of(a)
        .filter(CheckpointTimes::bound)
        .map(
            c ->
                new RoundLimit(
                    "checkpoints",
                    String.format(
                        Locale.ROOT,
                        "%s (≥ %.0f%%: one at a time, so they ran back to back, each as long as"
                            + " the interval or longer; a checkpoint also lasts longer under"
                            + " backpressure, and no other limit showed) while the consumers used"
                            + " %s of %d vCPUs%s",
                        c.describe(),
                        100 * CheckpointTimes.CHECKPOINT_BOUND,
                        consumersShare(a.steadyCpuUtilisation()),
                        a.vcpus(),
                        window)));
  }

  /** None showed: what was measured, and what is not recorded. */
  private static RoundLimit unknown(RoundAnalysis a, MachineLoad load, String window) {
    SinkTimes sink = SinkTimes.of(a);
    return new RoundLimit(
        "unknown",
        String.format(
            Locale.ROOT,
            "no limit showed%s: consumers %s of %d vCPUs, %s, no quota throttling, connections"
                + " below the limit, %s, %s; not recorded: the source's time per Pull or fetch",
            window,
            Double.isNaN(a.steadyCpuUtilisation())
                ? "n/a"
                : String.format(Locale.ROOT, "%.0f%%", 100 * a.steadyCpuUtilisation()),
            a.vcpus(),
            load.known() ? load.describe() : "the machine's CPU not recorded",
            sink.known()
                ? sink.describe()
                : "the sink's time per append not recorded (a run from before it was kept)",
            CheckpointTimes.of(a)
                .map(CheckpointTimes::describe)
                .orElse(
                    "the pipeline's own waiting on checkpoints not in these samples (embedded"
                        + " Flink's checkpoints are recorded per job, with Flink's configuration"
                        + " directory ingestbench writes)")));
  }

  /**
   * "; of the consumers' CPU, 30% was their JIT compiler's ..." where recorded, else "": a CPU
   * limit of a short run is partly the JVM's warm-up, which a long-running worker has behind it.
   */
  private static String jit(RoundAnalysis a) {
    double share = a.steadyJitShare();
    return Double.isNaN(share)
        ? ""
        : String.format(
            Locale.ROOT,
            "; of the consumers' CPU, %.0f%% was their JIT compiler's (the JVM compiling the"
                + " pipeline's code: a short run's warm-up)",
            100 * share);
  }

  /** "27%" of the vCPUs the consumers used, or "an unrecorded share" (NaN). */
  private static String consumersShare(double consumers) {
    return Double.isNaN(consumers)
        ? "an unrecorded share"
        : String.format(Locale.ROOT, "%.0f%%", 100 * consumers);
  }

  /** " over the 91 s steady window": where the CPU figures were taken. */
  static String window(MachineLoad load) {
    return String.format(Locale.ROOT, " over the %d s steady window", load.seconds());
  }

  /**
   * The Pub/Sub emulator at its ceiling: nearly a whole core while the consumers did not use theirs
   * and the machine had room (on a saturated machine the emulator is starved, not at its ceiling).
   * Not the Kafka broker, a JVM of many threads whose ceiling is not one core.
   *
   * @param consumers the consumers' share of the vCPUs (NaN when not recorded)
   */
  static Optional<RoundLimit> source(
      MachineLoad load, double consumers, int vcpus, boolean fed, String window) {
    if (!load.known() || load.busyShare() >= Diagnoser.CPU_BOUND) {
      return Optional.empty();
    }
    double cores =
        load.cpuSeconds().getOrDefault(ProcessCpuColumns.PUBSUB_EMULATOR, 0.0) / load.seconds();
    if (cores < SOURCE_BOUND_CORES) {
      return Optional.empty();
    }
    return Optional.of(
        new RoundLimit(
            "source-emulator",
            String.format(
                Locale.ROOT,
                "the Pub/Sub emulator used %.2f cores (≥ %.1f: it serves every call under one lock, so"
                    + " one core is its ceiling, and the more a subscription holds the slower each"
                    + " Pull) while the consumers used %s of %d vCPUs%s%s",
                cores,
                SOURCE_BOUND_CORES,
                consumersShare(consumers),
                vcpus,
                window,
                fed
                    ? ""
                    : "; a backlog fed in tranches keeps what each subscription holds small"
                        + " (round --feed, a backlog only: docs/local-mode.md)")));
  }
}
