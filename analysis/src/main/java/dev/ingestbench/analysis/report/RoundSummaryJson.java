package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.stats.Estimate;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code summary.json}: every number of the round, with how it was measured. The first keys are the
 * contract other tools read; the rest add the spread, the window and the machine.
 */
public final class RoundSummaryJson {
  private RoundSummaryJson() {}

  public static Map<String, Object> of(RoundAnalysis a) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("published", a.published());
    s.put("written", a.consumer().path("rows_written").asLong());
    s.put("distinct_message_ids", a.consumer().path("distinct_message_ids").asLong());
    s.put("duplicates", a.consumer().path("duplicates").asLong());
    s.put("dead_lettered", a.consumer().path("dead_lettered").asLong());
    s.put("lost", a.lost());
    s.put("rows_per_second", round(a.steadyRowsPerSecond().mean()));
    s.put("rows_per_second_per_vcpu", round(a.steadyRowsPerSecond().mean() / a.vcpus()));
    s.put("rows_per_cpu_second", round(a.rowsPerCpuSecond()));
    s.put("cpu_utilisation", round4(a.steadyCpuUtilisation()));
    s.put("p50_latency_ms", a.consumer().path("p50_latency_ms").asLong());
    s.put("p99_latency_ms", a.consumer().path("p99_latency_ms").asLong());
    s.put("live_p50_latency_ms", a.consumer().path("live_p50_latency_ms").asLong());
    s.put("live_p99_latency_ms", a.consumer().path("live_p99_latency_ms").asLong());
    s.put("runner", a.consumer().path("runner").asText());
    s.put("write_method", a.consumer().path("write_method").asText());
    s.put("row_format", a.consumer().path("row_format").asText());
    s.put("destination_tables", a.consumer().path("destination_tables").asInt());
    s.put("mb_per_second", round4(a.steadyMbPerSecond().mean()));
    s.put("rows_per_second_estimate", estimate(a.steadyRowsPerSecond()));
    s.put("mb_per_second_estimate", estimate(a.steadyMbPerSecond()));
    s.put("active_rows_per_second", round(a.activeRowsPerSecond()));
    s.put("active_seconds", a.activeSeconds());
    s.put("publish_failures", a.publishFailures());
    s.put("complete", a.lost() == 0 && a.consumer().path("duplicates").asLong() == 0);
    s.put("stop_reason", a.consumer().path("stop_reason").asText());
    s.put("peak_append_clients", a.consumer().path("peak_append_clients").asInt());
    s.put("peak_consumer_heap_mb", Math.round(a.peakConsumerHeapBytes() / 1e6));
    s.put("consumer_max_heap_mb", Math.round(a.consumer().path("max_heap_bytes").asLong() / 1e6));
    Map<String, Object> phases = new LinkedHashMap<>();
    for (Phase p : a.phases()) {
      phases.put(
          p.name(),
          Map.of("start", p.start().toString(), "end", p.end().toString(), "seconds", p.buckets()));
    }
    s.put("phases", phases);
    if (a.steady().isPresent()) {
      Map<String, Object> byProcess = new LinkedHashMap<>();
      a.processCpuSeconds(a.steady().get().start(), a.steady().get().end())
          .forEach((process, seconds) -> byProcess.put(process, round4(seconds)));
      s.put("steady_cpu_seconds_by_process", byProcess);
    }
    Map<String, Object> measured = new LinkedHashMap<>();
    measured.put("vcpus", a.vcpus());
    measured.put("steady_window_seconds", a.steady().map(Phase::buckets).orElse(0));
    measured.put("steady_cpu_seconds", round4(a.steadyCpuSeconds()));
    measured.put("samples", "per-second WRITE_API_TIMELINE buckets of the local sink; per-second process CPU of the consumer JVM");
    measured.put("cpu_utilisation_definition", "consumer JVM CPU-seconds / (vCPUs x seconds) over the steady window; publisher and emulator share the machine");
    measured.put("round", a.round());
    s.put("measured", measured);
    return s;
  }

  private static Map<String, Object> estimate(Estimate e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mean", round4(e.mean()));
    m.put("stddev", round4(e.stddev()));
    m.put("ci95_low", round4(e.ci95Low()));
    m.put("ci95_high", round4(e.ci95High()));
    m.put("n", e.n());
    return m;
  }

  static Double round(double v) {
    return Double.isNaN(v) ? null : Math.round(v * 10) / 10.0;
  }

  static Double round4(double v) {
    return Double.isNaN(v) ? null : Math.round(v * 10_000) / 10_000.0;
  }
}
