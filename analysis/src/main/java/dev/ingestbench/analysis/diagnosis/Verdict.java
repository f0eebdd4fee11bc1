package dev.ingestbench.analysis.diagnosis;

/**
 * One diagnosis with the numbers that support it.
 *
 * @param kind what it says, for scripts: {@code linear-scaling}, {@code contention}, {@code
 *     quota-throttled}, {@code quota-exceeded-unthrottled}, {@code quota-near}, {@code cpu-bound},
 *     {@code connection-limit}, {@code upstream-bound}, {@code no-bottleneck}; null where a verdict
 *     has none (a scenario stage's local rules)
 * @param phase the phase (or the later of two phases) it is about, or null for the whole timeline
 */
public record Verdict(String kind, String phase, String verdict, String evidence) {
  /** A verdict without a kind or phase. */
  public Verdict(String verdict, String evidence) {
    this(null, null, verdict, evidence);
  }
}
