package dev.ingestbench.harness.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.MachineCalibration;
import org.junit.jupiter.api.Test;

/** The machine's speed as a run records it: a real timing, consistent with itself. */
class CalibrationRunTest {
  @Test
  void itTimesTheFixedWorkloadAndKeepsTheFastestRepetition() {
    MachineCalibration c = CalibrationRun.measure();
    assertEquals(100_000, c.operations(), "the workload is fixed, whatever the machine");
    assertEquals(3, c.repetitions());
    assertTrue(c.bestSeconds() > 0 && c.bestSeconds() < 60, "a real timing: " + c);
    // Timed again at once on the same machine, the figure is the same within a factor of 4 (the
    // fastest of 3 passes, after a warm-up): a figure that is noise would not be.
    double again = CalibrationRun.measure().operationsPerSecond();
    assertTrue(
        again > c.operationsPerSecond() / 4 && again < c.operationsPerSecond() * 4,
        c.operationsPerSecond() + " then " + again);
    assertTrue(c.workload().contains("100,000 JSON taxi-ride messages of 500 B"), c.workload());
  }
}
