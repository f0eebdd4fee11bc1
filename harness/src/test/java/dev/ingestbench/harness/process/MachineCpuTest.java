package dev.ingestbench.harness.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MachineCpuTest {
  @Test
  void busyIsAllButIdleAndIoWaitAndStealIsItsOwnColumn() {
    // user nice system idle iowait irq softirq steal guest guest_nice
    MachineCpu before = MachineCpu.parse("cpu  100 0 50 800 20 5 5 20 0 0");
    MachineCpu after = MachineCpu.parse("cpu  250 0 100 800 20 10 10 30 0 0");
    assertEquals(180, before.busy());
    assertEquals(1000, before.total());
    assertEquals(20, before.steal());
    assertEquals(1.0, after.busyShareSince(before), 1e-9, "nothing idle between the two");
    assertEquals(10, after.steal() - before.steal());
  }

  @Test
  void thisMachineIsRead() {
    assertTrue(MachineCpu.now().known(), "/proc/stat on Linux");
  }
}
