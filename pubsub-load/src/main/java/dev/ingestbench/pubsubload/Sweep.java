package dev.ingestbench.pubsubload;

import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.analysis.report.Charts;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.verification.Finding;
import dev.ingestbench.verification.Verdict;
import dev.ingestbench.verification.VerificationPolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * {@code --sweep KEY=V1,V2,...}: one full measurement per value (the framework's thread-, core- and
 * size-scaling presets), each in its own directory and on its own topic, then throughput and
 * latency charted against the value.
 */
record Sweep(String key, List<Integer> values) {
  /** The settings a sweep can vary, and how each value is applied. */
  static final Map<String, BiFunction<LoadSettings, Integer, LoadSettings>> KEYS =
      Map.of(
          "threads", LoadSettings::withThreads,
          "message-size", LoadSettings::withMessageSize,
          "parallel-pull", LoadSettings::withParallelPull,
          "pull-batch", LoadSettings::withPullBatch);

  static Sweep parse(String spec) {
    int eq = spec.indexOf('=');
    String key = eq < 0 ? spec.trim() : spec.substring(0, eq).trim();
    if (!KEYS.containsKey(key)) {
      throw new IllegalArgumentException(
          "--sweep "
              + spec
              + ": the key must be one of "
              + KEYS.keySet().stream().sorted().toList()
              + ", as in --sweep threads=1,2,4,8");
    }
    if (eq < 0 || spec.substring(eq + 1).isBlank()) {
      throw new IllegalArgumentException(
          "--sweep " + spec + ": give the values after '=', as in --sweep " + key + "=1,2,4,8");
    }
    List<Integer> values = new ArrayList<>();
    for (String v : spec.substring(eq + 1).split(",")) {
      try {
        int n = Integer.parseInt(v.trim());
        if (n < 1) {
          throw new NumberFormatException();
        }
        if (values.contains(n)) {
          throw new IllegalArgumentException("--sweep " + spec + ": " + n + " is given twice");
        }
        values.add(n);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "--sweep " + spec + ": '" + v.trim() + "' is not a whole number above 0");
      }
    }
    return new Sweep(key, values);
  }

  int run(
      LoadSettings base,
      PubsubTarget target,
      String targetName,
      Map<String, Object> machine,
      Path dir,
      Consumer<String> log)
      throws Exception {
    Files.createDirectories(dir);
    List<LoadResult> results = new ArrayList<>();
    List<Map<String, Object>> points = new ArrayList<>();
    Verdict verdict = new Verdict(new VerificationPolicy(0));
    for (int i = 0; i < values.size(); i++) {
      int value = values.get(i);
      LoadSettings s =
          KEYS.get(key)
              .apply(base, value)
              .withTopic(
                  base.topic() + "-" + key + "-" + value,
                  base.subscription() + "-" + key + "-" + value)
              .validated();
      log.accept(
          String.format(
              Locale.ROOT, "Sweep %s: %d of %d, %s=%d", key, i + 1, values.size(), key, value));
      Path point = dir.resolve(key + "-" + value);
      LoadResult r = new LoadRun(s, target, Runs.id(), log).run(point);
      Map<String, Object> summary = LoadReport.write(r, machine, targetName, point);
      Map<String, Object> p = new LinkedHashMap<>();
      p.put(key, value);
      p.put("summary", summary);
      points.add(p);
      results.add(r);
      LoadVerification.judge(key + "=" + value, Runs.totals(summary)).forEach(verdict::add);
    }
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("sweep", key);
    json.put("values", values);
    json.put("points", points);
    RunJson.write(dir.resolve(LoadFiles.SUMMARY), json);
    charts(results, dir);
    Files.writeString(
        dir.resolve(LoadFiles.REPORT),
        markdown(results, machine, targetName),
        StandardCharsets.UTF_8);
    log.accept("Sweep report: " + dir.resolve(LoadFiles.REPORT));
    for (Finding f : verdict.failuresFirst()) {
      log.accept(f.heading() + " " + f.line());
    }
    return verdict.exitCode();
  }

  private void charts(List<LoadResult> results, Path dir) throws IOException {
    List<Double> x = values.stream().map(Integer::doubleValue).toList();
    Map<String, List<Double>> rates = new LinkedHashMap<>();
    Map<String, List<Double>> latency = new LinkedHashMap<>();
    LoadSettings.Side side = results.get(0).settings().side();
    if (side.publishes()) {
      rates.put(
          "published msgs/s", results.stream().map(r -> r.publishedPerSecond().mean()).toList());
      latency.put(
          "publish p50", results.stream().map(r -> percentile(r.publishLatency(), 50)).toList());
      latency.put(
          "publish p99", results.stream().map(r -> percentile(r.publishLatency(), 99)).toList());
    }
    if (side.subscribes()) {
      rates.put(
          "received msgs/s", results.stream().map(r -> r.receivedPerSecond().mean()).toList());
      if (side.publishes()) {
        latency.put(
            "end-to-end p99",
            results.stream().map(r -> percentile(r.endToEndLatency(), 99)).toList());
      }
    }
    Charts.againstSetting(
        "Throughput against " + key,
        key,
        "messages/s",
        x,
        rates,
        dir.resolve(LoadFiles.SWEEP_CHART));
    if (!latency.isEmpty()) {
      Charts.againstSetting(
          "Latency against " + key,
          key,
          "ms",
          x,
          latency,
          dir.resolve(LoadFiles.SWEEP_LATENCY_CHART));
    }
  }

  private static double percentile(Histogram h, double p) {
    return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(p) / 1000.0;
  }

  private String markdown(
      List<LoadResult> results, Map<String, Object> machine, String targetName) {
    LoadSettings first = results.get(0).settings();
    Document doc =
        new Document()
            .heading(1, "Pub/Sub load test: sweep of " + key)
            .paragraph(
                String.format(
                    Locale.ROOT,
                    "Against %s on %s vCPUs (%s). One measurement per value (burn-in %ds, window %ds);"
                        + " each value's own report is in its directory. Rates: mean of per-second samples ± 95%% CI.",
                    targetName,
                    machine.get("vcpus"),
                    machine.get("cpu_model"),
                    first.burnIn().getSeconds(),
                    first.duration().getSeconds()))
            .image("throughput", LoadFiles.SWEEP_CHART)
            .image("latency", LoadFiles.SWEEP_LATENCY_CHART);
    Table t =
        Table.of(
            Column.number(key),
            Column.number("Published msgs/s"),
            Column.number("MB/s"),
            Column.number("Received msgs/s"),
            Column.number("Publish p50 / p99 ms"),
            Column.number("End-to-end p99 ms"),
            Column.number("Missing"),
            Column.number("Duplicates"),
            Column.number("Harness CPU"));
    // A figure a side did not measure is "-", not 0.
    boolean publishes = first.side().publishes();
    boolean subscribes = first.side().subscribes();
    boolean both = first.side() == LoadSettings.Side.BOTH;
    for (int i = 0; i < results.size(); i++) {
      LoadResult r = results.get(i);
      t.row(
          "[" + values.get(i) + "](" + key + "-" + values.get(i) + "/" + LoadFiles.REPORT + ")",
          publishes ? r.publishedPerSecond().plusMinus(Numbers::f0) : "-",
          publishes ? Numbers.f2(r.publishedMbPerSecond().mean()) : "-",
          subscribes ? r.receivedPerSecond().plusMinus(Numbers::f0) : "-",
          publishes
              ? Numbers.f2(percentile(r.publishLatency(), 50))
                  + " / "
                  + Numbers.f2(percentile(r.publishLatency(), 99))
              : "-",
          r.endToEndLatency().getTotalCount() > 0
              ? Numbers.f2(percentile(r.endToEndLatency(), 99))
              : "-",
          both ? Numbers.count(r.missing()) : "-",
          subscribes ? Numbers.count(r.duplicates()) : "-",
          Numbers.pct(r.harnessShare()));
    }
    return doc.table(t).markdown();
  }

  /** "12,000 ± 340": a per-second rate's mean and its 95% interval's half width. */
}
