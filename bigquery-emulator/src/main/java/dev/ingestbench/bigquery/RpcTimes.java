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

  /**
   * One kind of call's answers. Locked per call: appends carry hundreds to thousands of rows, so a
   * round makes tens of calls a second.
   */
  private static final class Answers {
    final Histogram micros = new Histogram(MAX_MICROS, 2);
    long totalNanos;
  }

  private final Map<Faults.Rpc, Answers> byRpc = new EnumMap<>(Faults.Rpc.class);

  RpcTimes() {
    for (Faults.Rpc rpc : Faults.Rpc.values()) {
      byRpc.put(rpc, new Answers());
    }
  }

  /** A call of {@code rpc} answered {@code nanos} after it arrived. */
  void record(Faults.Rpc rpc, long nanos) {
    Answers a = byRpc.get(rpc);
    synchronized (a) {
      a.micros.recordValue(Math.min(MAX_MICROS, nanos / 1_000));
      a.totalNanos += nanos;
    }
  }

  /** How many calls of {@code rpc} were answered. */
  long calls(Faults.Rpc rpc) {
    Answers a = byRpc.get(rpc);
    synchronized (a) {
      return a.micros.getTotalCount();
    }
  }

  /** Every kind of call answered at least once, in the API's order. */
  List<EmulatorStatus.RpcTime> summary() {
    List<EmulatorStatus.RpcTime> out = new ArrayList<>();
    for (Faults.Rpc rpc : Faults.Rpc.values()) {
      Answers a = byRpc.get(rpc);
      synchronized (a) {
        if (a.micros.getTotalCount() > 0) {
          out.add(
              new EmulatorStatus.RpcTime(
                  rpc.method,
                  a.micros.getTotalCount(),
                  a.micros.getValueAtPercentile(50) / 1_000.0,
                  a.micros.getValueAtPercentile(99) / 1_000.0,
                  a.micros.getMaxValue() / 1_000.0,
                  a.totalNanos / 1e9));
        }
      }
    }
    return out;
  }
}
