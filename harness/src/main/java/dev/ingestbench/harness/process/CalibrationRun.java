package dev.ingestbench.harness.process;

import dev.ingestbench.contracts.MachineCalibration;
import dev.ingestbench.events.TaxiRideGenerator;

/**
 * Times a fixed workload on one thread: what a run records of the machine's speed that day ({@link
 * MachineCalibration}). The workload is the one every round does first and most: making 500-byte
 * JSON taxi-ride events (the publishers' and the BigQuery emulator's content check's work), so its
 * rate moves with the machine as the pipeline's figures do. A warm-up lets the JIT compile it; the
 * fastest of a few repetitions is kept, as the least disturbed by other work.
 */
public final class CalibrationRun {
  static final int MESSAGE_SIZE = 500;
  static final long OPERATIONS = 100_000;
  static final int REPETITIONS = 3;

  /** The bytes the last pass made: kept, so the JIT cannot drop the work as unused. */
  private static volatile long madeBytes;

  private CalibrationRun() {}

  /** About half a second on a 2-vCPU machine: a warm-up and {@link #REPETITIONS} timed passes. */
  public static MachineCalibration measure() {
    TaxiRideGenerator generator = new TaxiRideGenerator(1, MESSAGE_SIZE);
    madeBytes = pass(generator); // warm-up: the JIT compiles the generator
    double best = Double.MAX_VALUE;
    for (int r = 0; r < REPETITIONS; r++) {
      long start = System.nanoTime();
      madeBytes = pass(generator);
      best = Math.min(best, (System.nanoTime() - start) / 1e9);
    }
    return new MachineCalibration(
        String.format(
            java.util.Locale.ROOT,
            "generate %,d JSON taxi-ride messages of %d B on one thread, best of %d",
            OPERATIONS,
            MESSAGE_SIZE,
            REPETITIONS),
        OPERATIONS,
        REPETITIONS,
        best,
        OPERATIONS / best);
  }

  private static long pass(TaxiRideGenerator generator) {
    long bytes = 0;
    for (long i = 0; i < OPERATIONS; i++) {
      bytes += generator.message(i).length;
    }
    return bytes;
  }
}
