package dev.ingestbench.harness.round;

import dev.ingestbench.analysis.capacity.RateBisection;
import dev.ingestbench.analysis.report.MachineLoad;
import dev.ingestbench.analysis.stats.Estimate;
import dev.ingestbench.contracts.MaxRateResult;
import dev.ingestbench.harness.spec.MaxRateSpec;
import dev.ingestbench.scenario.StageKind.MaxRateSearch;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The max-rate search's answer from its probes: the highest rate sustained (by every probe that
 * asked for it), its spread, its cost in CPU, and which limit ended the search, with the figures
 * that named it.
 */
final class SearchResult {
  /** A machine this busy has no CPU left for anyone. */
  static final double SATURATED = 0.9;

  /** A process using this many cores of its own is bound by them (pstest, the local BigQuery). */
  static final double ONE_CORE = 0.9;

  private SearchResult() {}

  /** What ended the search, and the figures that say so. */
  record Limit(String name, String evidence) {}

  static MaxRateResult of(
      MaxRateSpec spec,
      RoundRateSearch.Round round,
      double publisherCapacity,
      RateBisection search,
      List<MaxRateResult.Probe> probes) {
    int vcpus = Runtime.getRuntime().availableProcessors();
    return of(spec, round.jobs().size(), vcpus, round.runId(), publisherCapacity, search, probes);
  }

  static MaxRateResult of(
      MaxRateSpec spec,
      int jobs,
      int vcpus,
      String runId,
      double publisherCapacity,
      RateBisection search,
      List<MaxRateResult.Probe> probes) {
    double best = search.sustained();
    List<MaxRateResult.Probe> atBest =
        probes.stream().filter(p -> best > 0 && p.askedPerSecond() == best).toList();
    boolean answered =
        !atBest.isEmpty() && atBest.stream().allMatch(MaxRateResult.Probe::sustained);
    List<Double> samples = new ArrayList<>();
    double rowsPerCpuSecond = 0;
    for (MaxRateResult.Probe p : atBest) {
      samples.addAll(p.writtenSamples());
      rowsPerCpuSecond += p.writtenPerSecond().mean() * jobs / p.consumerCores();
    }
    Estimate e = Estimate.of(samples);
    MaxRateResult.Probe limiting = limitingProbe(probes, answered ? best : 0);
    MaxRateResult.Probe disturbed =
        probes.stream()
            .filter(p -> p.otherCores() >= MachineLoad.DISTURBED * vcpus)
            .max(Comparator.comparingDouble(MaxRateResult.Probe::otherCores))
            .orElse(null);
    Limit limit =
        limit(limiting, answered && Double.isNaN(search.notSustained()), publisherCapacity, vcpus);
    if (disturbed != null && !List.of("quota", "connections").contains(limit.name())) {
      // Work outside the round starved the publisher and the pipeline alike: whatever limit showed,
      // it is this machine's that day, not the pipeline's.
      limit =
          new Limit(
              "machine-cpu",
              String.format(
                  Locale.ROOT,
                  "other processes used %.2f cores of %d during probe %d (%,.0f msg/s), beside the"
                      + " round's own: the publisher and the pipeline were starved by work outside the"
                      + " run, so this answer is the busy machine's; run again on a quiet machine (the"
                      + " limit as measured: %s, %s)",
                  disturbed.otherCores(),
                  vcpus,
                  disturbed.number(),
                  disturbed.askedPerSecond(),
                  limit.name(),
                  limit.evidence()));
    }
    return new MaxRateResult(
        runId,
        answered ? best : null,
        limit.name(),
        limit.evidence(),
        publisherCapacity,
        spec.latencySlo().toMillis(),
        MaxRateSearch.SETTLE.toSeconds(),
        spec.window().toSeconds(),
        RoundRateSearch.KEPT_UP,
        vcpus,
        jobs,
        answered ? atBest.size() : 0,
        answered ? new MaxRateResult.Rate(e.mean(), e.ci95Low(), e.ci95High(), e.n()) : null,
        answered ? best / vcpus : null,
        answered && Double.isFinite(rowsPerCpuSecond) ? rowsPerCpuSecond / atBest.size() : null,
        answered ? best : 0,
        Double.isNaN(search.notSustained()) ? null : search.notSustained(),
        List.copyOf(probes));
  }

  /** The probe that failed at the lowest rate above {@code best}: where the limit showed. */
  private static MaxRateResult.Probe limitingProbe(List<MaxRateResult.Probe> probes, double best) {
    return probes.stream()
        .filter(p -> !p.sustained() && p.askedPerSecond() > best)
        .min(Comparator.comparingDouble(MaxRateResult.Probe::askedPerSecond))
        .orElse(null);
  }

  /**
   * The limit's name and its evidence. The publisher when every job kept up with all it could send;
   * else, at the lowest rate not sustained: the local BigQuery's quota or connection limit if it
   * throttled or refused; a saturated machine (the consumers' CPU when they used at least half of
   * it, else the machine's, shared with the emulators and the publisher); the source server when it
   * used a whole core; the consumers when they used nearly every vCPU; the latency SLO when only
   * latency failed; else unknown.
   */
  static Limit limit(
      MaxRateResult.Probe p, boolean keptUpWithPublisher, double publisherCapacity, int vcpus) {
    if (keptUpWithPublisher) {
      return new Limit(
          "publisher",
          String.format(
              Locale.ROOT,
              "every job kept up with all the publisher could send (%,.0f msg/s alone); the"
                  + " pipeline's own limit is higher",
              publisherCapacity));
    }
    if (p == null) {
      return new Limit("unknown", "no probe above the answer failed");
    }
    String at =
        String.format(
            Locale.ROOT,
            "at %,.0f msg/s (probe %d: %s): machine busy %.0f%%, consumers %.2f cores of %d,"
                + " source server %.2f cores, BigQuery emulator %.2f cores, %,d throttled appends,"
                + " %,d refused connections",
            p.askedPerSecond(),
            p.number(),
            p.verdict(),
            100 * p.machineBusyShare(),
            p.consumerCores(),
            vcpus,
            p.sourceCores(),
            p.sinkCores(),
            p.throttledAppends(),
            p.refusedConnections());
    String name;
    if (p.verdict().startsWith("the publisher sent")) {
      name = "publisher";
    } else if (p.throttledAppends() > 0) {
      name = "quota";
    } else if (p.refusedConnections() > 0) {
      name = "connections";
    } else if (p.machineBusyShare() >= SATURATED) {
      name =
          p.consumerCores() >= 0.5 * vcpus * p.machineBusyShare() ? "consumer-cpu" : "machine-cpu";
    } else if (p.sourceCores() >= ONE_CORE) {
      name = "source-emulator";
    } else if (p.consumerCores() >= SATURATED * vcpus) {
      name = "consumer-cpu";
    } else if (p.verdict().startsWith("latency")) {
      name = "latency";
    } else {
      name = "unknown";
    }
    return new Limit(name, at);
  }
}
