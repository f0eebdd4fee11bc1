package dev.ingestbench.pubsubload;

import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.report.Charts;
import dev.ingestbench.analysis.stats.Estimate;
import dev.ingestbench.contracts.RunJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
    Document doc =
        new Document().heading(1, "Pub/Sub load test").paragraph(method(r, machine, target));
    if (target.startsWith("the Pub/Sub emulator")) {
      doc.paragraph(
          "The emulator (pstest) is a process of its own, on this machine when started for the"
              + " test: it takes its share of the CPU, and its Pull slows as its backlog grows;"
              + " figures against it say what one machine does end to end, not what Pub/Sub does.");
    }
    doc.image("messages per second", LoadFiles.CHART);
    Table settings = Table.of(Column.text("Setting"), Column.text("Value"));
    r.settings().describe().forEach((k, v) -> settings.row(k, String.valueOf(v)));
    doc.heading(2, "Settings").table(settings);
    doc.heading(2, "Throughput").table(throughput(r));
    doc.heading(2, "Latency (ms)").table(latency(r));
    doc.heading(2, "Every message accounted for").bullets(accounts(r));
    doc.heading(2, "The harness's own cost").paragraph(harnessCost(r));
    return doc.markdown();
  }

  /** Where, when, on what, and how the figures are made. */
  private static String method(LoadResult r, Map<String, Object> machine, String target) {
    return String.format(
        Locale.ROOT,
        "Against %s, from %s to %s, on %s vCPUs (%s; %s). Burn-in %ds, then a %d-second"
            + " measurement window sampled every second; rates are the mean of the window's"
            + " per-second samples with a 95%% confidence interval (MB = 10^6 bytes); latencies from"
            + " HDR histograms of the window.",
        target,
        r.started(),
        r.ended(),
        machine.get("vcpus"),
        machine.get("cpu_model"),
        machine.get("java"),
        r.settings().burnIn().getSeconds(),
        r.window().size());
  }

  private static Table throughput(LoadResult r) {
    Table t =
        Table.of(
            Column.text("Side"),
            Column.number("Messages/s (mean ± 95% CI)"),
            Column.number("sd"),
            Column.number("MB/s (mean ± 95% CI)"));
    if (r.settings().side().publishes()) {
      row(t, "publish (acknowledged)", r.publishedPerSecond(), r.publishedMbPerSecond());
    }
    if (r.settings().side().subscribes()) {
      row(t, "subscribe (received)", r.receivedPerSecond(), r.receivedMbPerSecond());
    }
    return t;
  }

  private static Table latency(LoadResult r) {
    Table t =
        Table.of(
            Column.text("Latency"),
            Column.number("p50"),
            Column.number("p90"),
            Column.number("p99"),
            Column.number("p99.9"),
            Column.number("max"),
            Column.number("samples"));
    if (r.settings().side().publishes()) {
      latencyRow(t, "publish (call to acknowledgement)", r.publishLatency());
    }
    if (r.endToEndLatency().getTotalCount() > 0) {
      latencyRow(t, "end to end (publish time to receipt)", r.endToEndLatency());
    }
    return t;
  }

  /** Published = acknowledged + errors; what was received, and what went missing. */
  private static List<String> accounts(LoadResult r) {
    List<String> lines = new ArrayList<>();
    lines.add(
        String.format(
            Locale.ROOT,
            "published %,d = acknowledged %,d + errors %,d: %s",
            r.published(),
            r.acked(),
            r.errors(),
            r.published() == r.acked() + r.errors() ? "yes" : "**no**"));
    if (r.settings().side().subscribes()) {
      lines.add(
          String.format(
              Locale.ROOT,
              "received %,d (%,d distinct), duplicates %,d (Pub/Sub delivers at least"
                  + " once: duplicates are counted, not an error)",
              r.received(),
              r.counters().receivedSequences.distinct(),
              r.duplicates()));
    }
    if (r.settings().side() == LoadSettings.Side.BOTH) {
      lines.add(
          String.format(
              Locale.ROOT,
              "missing (acknowledged, not received): %,d; %s",
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
      lines.add("first publish error: `" + r.counters().firstPublishError + "`");
    }
    if (r.counters().firstSubscriberError != null) {
      lines.add("first subscriber error: `" + r.counters().firstSubscriberError + "`");
    }
    return lines;
  }

  private static String harnessCost(LoadResult r) {
    double share = r.harnessShare();
    return String.format(
        Locale.ROOT,
        "Measured by running its per-message work alone (building the message and its"
            + " attributes, timing, counting, sequence bits) with no client behind it: %.0f ns of"
            + " CPU per published message, %.0f ns per received one. At the rates above that is"
            + " %.1f%% of the %.2f CPU cores this process used in the window (goal: under %.0f%%,"
            + " so the client, not the harness, saturates first)%s.",
        r.harness().publishNanos(),
        r.harness().subscribeNanos(),
        100 * share,
        r.processCpuCores(),
        100 * HARNESS_SHARE_GOAL,
        share < HARNESS_SHARE_GOAL ? "" : ": **over the goal**");
  }

  private static void row(Table t, String side, Estimate rate, Estimate mb) {
    t.row(side, rate.plusMinus(Numbers::f0), Numbers.f0(rate.stddev()), mb.plusMinus(Numbers::f2));
  }

  private static void latencyRow(Table t, String name, Histogram h) {
    if (h.getTotalCount() == 0) {
      t.row(name, "-", "-", "-", "-", "-", "0");
      return;
    }
    t.row(
        name,
        Numbers.f2(h.getValueAtPercentile(50) / 1000.0),
        Numbers.f2(h.getValueAtPercentile(90) / 1000.0),
        Numbers.f2(h.getValueAtPercentile(99) / 1000.0),
        Numbers.f2(h.getValueAtPercentile(99.9) / 1000.0),
        Numbers.f2(h.getMaxValue() / 1000.0),
        Numbers.count(h.getTotalCount()));
  }
}
