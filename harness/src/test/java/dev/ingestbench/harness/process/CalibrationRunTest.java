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
    assertEquals(CalibrationRun.OPERATIONS, c.operations());
    assertEquals(CalibrationRun.REPETITIONS, c.repetitions());
    assertTrue(c.bestSeconds() > 0 && c.bestSeconds() < 60, "a real timing: " + c);
    assertEquals(c.operations() / c.bestSeconds(), c.operationsPerSecond(), 1e-6);
    assertTrue(c.workload().contains("100,000 JSON taxi-ride messages of 500 B"), c.workload());
  }
}
