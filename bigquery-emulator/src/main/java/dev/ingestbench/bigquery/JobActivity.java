package dev.ingestbench.bigquery;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Whether a job is still trying to write, whatever becomes of its appends: every AppendRows request
 * counted when it arrives (before a quota holds it or a fault refuses it), and those not yet
 * answered. A run that waits for a quiet job to call what is missing lost must see a job whose
 * appends are held or refused as busy, not quiet.
 */
final class JobActivity {
  private final Map<String, LongAdder> requests = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();

  /** A request of {@code job} arrived; {@link #answered} must follow. */
  void arrived(String job) {
    requests.computeIfAbsent(job, j -> new LongAdder()).increment();
    inFlight.computeIfAbsent(job, j -> new AtomicInteger()).incrementAndGet();
  }

  /** A request of {@code job} was answered, refused or dropped. */
  void answered(String job) {
    inFlight.get(job).decrementAndGet();
  }

  long requests(String job) {
    LongAdder n = requests.get(job);
    return n == null ? 0 : n.sum();
  }

  int inFlight(String job) {
    AtomicInteger n = inFlight.get(job);
    return n == null ? 0 : n.get();
  }

  /** Every job that has sent a request. */
  Set<String> jobs() {
    return requests.keySet();
  }
}
