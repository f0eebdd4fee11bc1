package dev.ingestbench.jmh.report;

/**
 * One route at one message size, from JMH: mean µs per row with JMH's 99.9% error, and the bytes
 * allocated per row from {@code -prof gc}.
 */
public record Measurement(
    Route route,
    int messageSizeBytes,
    double usPerRow,
    double errorUs,
    double bytesAllocatedPerRow,
    long samples) {

  /** One vCPU running this route and nothing else, as rows/s. */
  public double rowsPerSecondPerVcpu() {
    return 1e6 / usPerRow;
  }

  /** vCPUs this per-row work alone needs for {@code rowsPerSecond}; the pipeline needs more. */
  public double vcpusFor(double rowsPerSecond) {
    return rowsPerSecond / rowsPerSecondPerVcpu();
  }

  /** The key in summary.json, e.g. {@code proto-500B}. */
  public String key() {
    return route.label + "-" + messageSizeBytes + "B";
  }
}
