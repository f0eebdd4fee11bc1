package dev.ingestbench.pubsubload;

import dev.ingestbench.analysis.stats.Estimate;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * A finished measurement: its per-second samples, final counts and the measurement window's latency
 * histograms, with the figures {@code summary.json} and the report give (MB = 10^6 bytes; rates are
 * the mean of the window's per-second samples with a 95% confidence interval).
 */
record LoadResult(
    LoadSettings settings,
    Instant started,
    Instant ended,
    List<LoadSample> samples,
    LoadCounters counters,
    Histogram publishLatency,
    Histogram endToEndLatency,
    double processCpuCores,
    HarnessOverhead harness,
    LoadRun.DrainEnd drainEnd) {

  List<LoadSample> window() {
    return samples.stream().filter(s -> s.phase().equals(LoadSample.MEASURE)).toList();
  }

  Estimate publishedPerSecond() {
    return Estimate.of(window().stream().map(s -> (double) s.acked()).toList());
  }

  Estimate publishedMbPerSecond() {
    return Estimate.of(window().stream().map(s -> s.bytesAcked() / 1e6).toList());
  }

  Estimate receivedPerSecond() {
    return Estimate.of(window().stream().map(s -> (double) s.received()).toList());
  }

  Estimate receivedMbPerSecond() {
    return Estimate.of(window().stream().map(s -> s.bytesReceived() / 1e6).toList());
  }

  long published() {
    return counters.published.sum();
  }

  long acked() {
    return counters.acked.sum();
  }

  long errors() {
    return counters.errors.sum();
  }

  long received() {
    return counters.received.sum();
  }

  long duplicates() {
    return counters.receivedSequences.duplicates();
  }

  /** Acknowledged by the service, never received (only when both sides ran). */
  long missing() {
    return settings.side() == LoadSettings.Side.BOTH
        ? counters.ackedSequences.missingFrom(counters.receivedSequences)
        : 0;
  }

  double harnessShare() {
    return harness.shareOf(
        processCpuCores,
        publishedPerSecond().mean(),
        settings.side().subscribes() ? receivedPerSecond().mean() : 0);
  }

  Map<String, Object> summary(Map<String, Object> machine, String targetDescription) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("started", started.toString());
    m.put("ended", ended.toString());
    m.put("target", targetDescription);
    m.put("machine", machine);
    m.put("settings", settings.describe());
    Map<String, Object> window = new LinkedHashMap<>();
    window.put("burn_in_seconds", settings.burnIn().getSeconds());
    window.put("seconds", window().size());
    m.put("window", window);
    if (settings.side().publishes()) {
      Map<String, Object> p = new LinkedHashMap<>();
      p.put("messages_per_second", estimate(publishedPerSecond()));
      p.put("mb_per_second", estimate(publishedMbPerSecond()));
      p.put("latency_ms", latency(publishLatency));
      m.put("publish", p);
    }
    if (settings.side().subscribes()) {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("messages_per_second", estimate(receivedPerSecond()));
      s.put("mb_per_second", estimate(receivedMbPerSecond()));
      if (endToEndLatency.getTotalCount() > 0) {
        s.put("end_to_end_latency_ms", latency(endToEndLatency));
      }
      m.put("subscribe", s);
    }
    Map<String, Object> totals = new LinkedHashMap<>();
    totals.put("published", published());
    totals.put("acked", acked());
    totals.put("errors", errors());
    if (settings.side().subscribes()) {
      totals.put("received", received());
      totals.put("distinct_received", counters.receivedSequences.distinct());
      totals.put("duplicates", duplicates());
      totals.put("foreign", counters.foreign.sum());
      totals.put("subscriber_errors", counters.subscriberErrors.sum());
    }
    if (settings.side() == LoadSettings.Side.BOTH) {
      totals.put("missing", missing());
      totals.put("drain", drainEnd.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    }
    m.put("totals", totals);
    Map<String, Object> checks = new LinkedHashMap<>();
    checks.put("published_equals_acked_plus_errors", published() == acked() + errors());
    if (settings.side() == LoadSettings.Side.BOTH) {
      checks.put("received_at_least_acked", received() >= acked());
      checks.put("none_missing", missing() == 0);
    }
    m.put("checks", checks);
    if (counters.firstPublishError != null) {
      m.put("first_publish_error", String.valueOf(counters.firstPublishError));
    }
    if (counters.firstSubscriberError != null) {
      m.put("first_subscriber_error", String.valueOf(counters.firstSubscriberError));
    }
    Map<String, Object> h = new LinkedHashMap<>();
    h.put("publish_cpu_ns_per_message", round(harness.publishNanos()));
    h.put("subscribe_cpu_ns_per_message", round(harness.subscribeNanos()));
    h.put("process_cpu_cores", round(processCpuCores));
    h.put("share_of_process_cpu_pct", round(100 * harnessShare()));
    m.put("harness", h);
    return m;
  }

  static Map<String, Object> estimate(Estimate e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mean", round(e.mean()));
    m.put("stddev", round(e.stddev()));
    m.put("ci95_low", round(e.ci95Low()));
    m.put("ci95_high", round(e.ci95High()));
    m.put("n", e.n());
    return m;
  }

  static Map<String, Object> latency(Histogram h) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("p50", ms(h, 50));
    m.put("p90", ms(h, 90));
    m.put("p99", ms(h, 99));
    m.put("p99_9", ms(h, 99.9));
    m.put("max", h.getTotalCount() == 0 ? null : h.getMaxValue() / 1000.0);
    m.put("samples", h.getTotalCount());
    return m;
  }

  private static Double ms(Histogram h, double percentile) {
    return h.getTotalCount() == 0 ? null : h.getValueAtPercentile(percentile) / 1000.0;
  }

  /** A figure for JSON: three decimals, null where there is no number. */
  static Double round(double v) {
    return Double.isNaN(v) || Double.isInfinite(v) ? null : Math.round(v * 1000) / 1000.0;
  }
}
