package dev.ingestbench.pubsubload;

import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.report.Charts;
import dev.ingestbench.analysis.stats.Estimate;
import dev.ingestbench.contracts.RunJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** {@code summary.json}, {@code report.md} and the per-second chart of one measurement. */
final class LoadReport {
  /**
   * The harness should cost less than this share of the process's CPU, so the client saturates
   * first.
   */
  static final double HARNESS_SHARE_GOAL = 0.10;

  private LoadReport() {}

  static Map<String, Object> write(
      LoadResult r, Map<String, Object> machine, String target, Path out) throws IOException {
    Map<String, Object> summary = r.summary(machine, target);
    RunJson.write(out.resolve(LoadFiles.SUMMARY), summary);
    chart(r, out.resolve(LoadFiles.CHART));
    Files.writeString(
        out.resolve(LoadFiles.REPORT), markdown(r, machine, target), StandardCharsets.UTF_8);
    return summary;
  }

  private static void chart(LoadResult r, Path file) throws IOException {
    List<LoadSample> s = r.samples();
    Map<String, List<Date>> x = new LinkedHashMap<>();
    Map<String, List<Double>> y = new LinkedHashMap<>();
    List<Date> seconds = s.stream().map(v -> Date.from(v.second())).toList();
    if (r.settings().side().publishes()) {
      x.put("published (acked)", seconds);
      y.put("published (acked)", s.stream().map(v -> (double) v.acked()).toList());
    }
    if (r.settings().side().subscribes()) {
      x.put("received", seconds);
      y.put("received", s.stream().map(v -> (double) v.received()).toList());
    }
    List<LoadSample> burnIn = s.stream().filter(v -> v.phase().equals(LoadSample.BURN_IN)).toList();
    List<Phase> shaded =
        burnIn.isEmpty()
            ? List.of()
            : List.of(
                new Phase(
                    "burn-in",
                    0,
                    burnIn.size(),
                    burnIn.get(0).second().minusSeconds(1),
                    burnIn.get(burnIn.size() - 1).second()));
    Charts.lines(
        "Messages per second (burn-in shaded)", "messages/s", "HH:mm:ss", x, y, shaded, file);
  }

  static String markdown(LoadResult r, Map<String, Object> machine, String target) {
    StringBuilder md = new StringBuilder("# Pub/Sub load test\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "Against %s, from %s to %s, on %s vCPUs (%s; %s). Burn-in %ds, then a %d-second"
                + " measurement window sampled every second; rates are the mean of the window's per-second samples with a"
                + " 95%% confidence interval (MB = 10^6 bytes); latencies from HDR histograms of the window.%n%n",
            target,
            r.started(),
            r.ended(),
            machine.get("vcpus"),
            machine.get("cpu_model"),
            machine.get("java"),
            r.settings().burnIn().getSeconds(),
            r.window().size()));
    if (target.startsWith("the Pub/Sub emulator")) {
      md.append(
          "The emulator (pstest) is a process of its own, on this machine when started for the test: it takes its"
              + " share of the CPU, and its Pull slows as its backlog grows; figures against it say what one machine does"
              + " end to end, not what Pub/Sub does.\n\n");
    }
    md.append("![messages per second](")
        .append(LoadFiles.CHART)
        .append(")\n\n## Settings\n\n| Setting | Value |\n|:---|:---|\n");
    r.settings()
        .describe()
        .forEach((k, v) -> md.append("| ").append(k).append(" | ").append(v).append(" |\n"));
    md.append(
        "\n## Throughput\n\n| Side | Messages/s (mean ± 95% CI) | sd | MB/s (mean ± 95% CI) |\n|:---|---:|---:|---:|\n");
    if (r.settings().side().publishes()) {
      md.append(row("publish (acknowledged)", r.publishedPerSecond(), r.publishedMbPerSecond()));
    }
    if (r.settings().side().subscribes()) {
      md.append(row("subscribe (received)", r.receivedPerSecond(), r.receivedMbPerSecond()));
    }
    md.append(
        "\n## Latency (ms)\n\n| Latency | p50 | p90 | p99 | p99.9 | max | samples |\n|:---|---:|---:|---:|---:|---:|---:|\n");
    if (r.settings().side().publishes()) {
      md.append(latencyRow("publish (call to acknowledgement)", r.publishLatency()));
    }
    if (r.endToEndLatency().getTotalCount() > 0) {
      md.append(latencyRow("end to end (publish time to receipt)", r.endToEndLatency()));
    }
    md.append("\n## Every message accounted for\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "- published %,d = acknowledged %,d + errors %,d: %s%n",
            r.published(),
            r.acked(),
            r.errors(),
            r.published() == r.acked() + r.errors() ? "yes" : "**no**"));
    if (r.settings().side().subscribes()) {
      md.append(
          String.format(
              Locale.ROOT,
              "- received %,d (%,d distinct), duplicates %,d (Pub/Sub delivers at least"
                  + " once: duplicates are counted, not an error)%n",
              r.received(),
              r.counters().receivedSequences.distinct(),
              r.duplicates()));
    }
    if (r.settings().side() == LoadSettings.Side.BOTH) {
      md.append(
          String.format(
              Locale.ROOT,
              "- missing (acknowledged, not received): %,d; %s%n",
              r.missing(),
              switch (r.drainEnd()) {
                case CAUGHT_UP -> "the subscriber caught up after publishing stopped";
                case STALLED ->
                    "nothing more arrived for "
                        + LoadRun.DRAIN_STALL.getSeconds()
                        + " s after publishing stopped:"
                        + " those messages were not delivered";
                case TIME_LIMIT ->
                    "**the subscriber was still receiving when the drain ended after "
                        + LoadRun.DRAIN_MAX.getSeconds()
                        + " s: it is slower than the publisher; these are not proven lost**";
                case NONE -> "";
              }));
    }
    if (r.counters().firstPublishError != null) {
      md.append("- first publish error: `").append(r.counters().firstPublishError).append("`\n");
    }
    if (r.counters().firstSubscriberError != null) {
      md.append("- first subscriber error: `")
          .append(r.counters().firstSubscriberError)
          .append("`\n");
    }
    double share = r.harnessShare();
    md.append(
        String.format(
            Locale.ROOT,
            "%n## The harness's own cost%n%nMeasured by running its per-message work alone"
                + " (building the message and its attributes, timing, counting, sequence bits) with no client behind it:"
                + " %.0f ns of CPU per published message, %.0f ns per received one. At the rates above that is %.1f%% of the"
                + " %.2f CPU cores this process used in the window (goal: under %.0f%%, so the client, not the harness,"
                + " saturates first)%s.%n",
            r.harness().publishNanos(),
            r.harness().subscribeNanos(),
            100 * share,
            r.processCpuCores(),
            100 * HARNESS_SHARE_GOAL,
            share < HARNESS_SHARE_GOAL ? "" : ": **over the goal**"));
    return md.toString();
  }

  private static String row(String side, Estimate rate, Estimate mb) {
    return String.format(
        Locale.ROOT,
        "| %s | %,.0f ± %,.0f | %,.0f | %.2f ± %.2f |%n",
        side,
        rate.mean(),
        (rate.ci95High() - rate.ci95Low()) / 2,
        rate.stddev(),
        mb.mean(),
        (mb.ci95High() - mb.ci95Low()) / 2);
  }

  private static String latencyRow(String name, Histogram h) {
    if (h.getTotalCount() == 0) {
      return "| " + name + " | - | - | - | - | - | 0 |\n";
    }
    return String.format(
        Locale.ROOT,
        "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %,d |%n",
        name,
        h.getValueAtPercentile(50) / 1000.0,
        h.getValueAtPercentile(90) / 1000.0,
        h.getValueAtPercentile(99) / 1000.0,
        h.getValueAtPercentile(99.9) / 1000.0,
        h.getMaxValue() / 1000.0,
        h.getTotalCount());
  }
}
