package dev.ingestbench.bigquery;

import dev.ingestbench.contracts.EmulatorStatus;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * How long the server took to answer each kind of Storage Write API call, from its arrival to its
 * answer (a quota's hold and a fault's refusal included): what the sink's side of the pipeline's
 * round trips cost, per append, flush, finalize and commit.
 */
final class RpcTimes {
  /** The longest answer a histogram holds: an hour, in microseconds. */
  private static final long MAX_MICROS = TimeUnit.HOURS.toMicros(1);

  private final Map<Faults.Rpc, Histogram> micros = new EnumMap<>(Faults.Rpc.class);
  private final Map<Faults.Rpc, long[]> totalNanos = new EnumMap<>(Faults.Rpc.class);

  RpcTimes() {
    for (Faults.Rpc rpc : Faults.Rpc.values()) {
      micros.put(rpc, new Histogram(MAX_MICROS, 2));
      totalNanos.put(rpc, new long[1]);
    }
  }

  /** A call of {@code rpc} answered {@code nanos} after it arrived. */
  void record(Faults.Rpc rpc, long nanos) {
    Histogram h = micros.get(rpc);
    synchronized (h) {
      h.recordValue(Math.min(MAX_MICROS, Math.max(0, nanos / 1_000)));
      totalNanos.get(rpc)[0] += nanos;
    }
  }

  /** Every kind of call answered at least once, in the API's order. */
  List<EmulatorStatus.RpcTime> summary() {
    List<EmulatorStatus.RpcTime> out = new ArrayList<>();
    for (Faults.Rpc rpc : Faults.Rpc.values()) {
      Histogram h = micros.get(rpc);
      synchronized (h) {
        if (h.getTotalCount() > 0) {
          out.add(
              new EmulatorStatus.RpcTime(
                  rpc.method,
                  h.getTotalCount(),
                  h.getValueAtPercentile(50) / 1_000.0,
                  h.getValueAtPercentile(99) / 1_000.0,
                  h.getMaxValue() / 1_000.0,
                  totalNanos.get(rpc)[0] / 1e9));
        }
      }
    }
    return out;
  }
}
