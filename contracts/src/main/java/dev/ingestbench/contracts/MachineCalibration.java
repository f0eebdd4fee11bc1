package dev.ingestbench.contracts;

/**
 * How fast this machine was when a run began: a fixed, short CPU workload timed on one thread, so
 * that runs from different days, whose machine may differ 3-4x in speed, are read side by side (a
 * slower day shows here, not as a slower pipeline).
 *
 * @param workload what was timed, in words
 * @param operations how many of it one repetition did
 * @param repetitions how many repetitions were timed (after a warm-up)
 * @param bestSeconds the fastest repetition
 * @param operationsPerSecond {@code operations / bestSeconds}
 */
public record MachineCalibration(
    String workload,
    long operations,
    int repetitions,
    double bestSeconds,
    double operationsPerSecond) {

  /** "837,948 operations/s (generate ...)": how every report and console line says it. */
  public String describe() {
    return String.format(
        java.util.Locale.ROOT, "%,.0f operations/s (%s)", operationsPerSecond, workload);
  }
}
