package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.source.ConnectionsCsv;
import dev.ingestbench.contracts.ConnectionColumns;
import dev.ingestbench.contracts.EmulatorStatus;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The sink's side of the pipeline's round trips, from the BigQuery emulator: how long it took to
 * answer each kind of call over the round, and the share of the steady window it kept each open
 * connection waiting on appends (a connection's appends are answered one after another, so near all
 * of it means the sink, not the pipeline, set the pace).
 *
 * @param busyShare the emulator's time answering appends over the steady window, per open
 *     connection-second; NaN where the run did not record it
 */
record SinkTimes(double busyShare, List<EmulatorStatus.RpcTime> calls) {
  /** A connection kept waiting this share of the time is the sink's, not the pipeline's. */
  static final double SINK_BOUND = 0.9;

  static SinkTimes of(RoundAnalysis a) {
    List<EmulatorStatus.RpcTime> calls = a.emulator().map(EmulatorStatus::rpcTimes).orElse(null);
    return new SinkTimes(busyShare(a.connections(), a.steady()), calls == null ? List.of() : calls);
  }

  /** Σ append server time ÷ Σ open connection-seconds over the window, every job together. */
  static double busyShare(List<ConnectionsCsv.Sample> samples, Optional<Phase> window) {
    if (window.isEmpty()) {
      return Double.NaN;
    }
    long from = window.get().start().getEpochSecond();
    long to = window.get().end().getEpochSecond();
    double server = 0;
    double open = 0;
    for (ConnectionsCsv.Sample s : samples) {
      long second = s.second().getEpochSecond();
      if (s.job().equals(ConnectionColumns.ALL_JOBS) && second >= from && second < to) {
        server += s.appendServerMicros() / 1e6;
        open += s.maxOpen();
      }
    }
    return open == 0 || server == 0 ? Double.NaN : server / open;
  }

  boolean known() {
    return !Double.isNaN(busyShare);
  }

  boolean bound() {
    return known() && busyShare >= SINK_BOUND;
  }

  /** "appends p50 1.2 ms, p99 9.8 ms (12,345); FlushRows p50 ...": every kind answered. */
  String describeCalls() {
    return calls.stream()
        .map(
            c ->
                String.format(
                    Locale.ROOT,
                    "%s p50 %.1f ms, p99 %.1f ms (%,d calls)",
                    c.rpc(),
                    c.p50Ms(),
                    c.p99Ms(),
                    c.calls()))
        .collect(Collectors.joining("; "));
  }

  /** The share, and what each kind of call took. */
  String describe() {
    return String.format(
            Locale.ROOT,
            "the BigQuery emulator kept each open connection waiting %.0f%% of the steady window"
                + " answering appends",
            100 * busyShare)
        + (calls.isEmpty() ? "" : " (over the round: " + describeCalls() + ")");
  }
}
