package dev.ingestbench.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** A /proc stat line's name, CPU and start, whatever the name holds. */
class ProcStatTest {
  /** Fields 3..22 after the name: state, then 11 fields, utime, stime, 4 more, nice..., start. */
  private static String line(String name, long utime, long stime, long start) {
    return "4242 ("
        + name
        + ") S 1 2 3 0 -1 4194368 100 0 0 0 "
        + utime
        + " "
        + stime
        + " 0 0 20 0 30 0 "
        + start
        + " 123456 789 18446744073709551615";
  }

  @Test
  void theFieldsAfterANameWithSpacesAndParenthesesAreRead() {
    ProcStat s = ProcStat.parse(line("C2 Compiler (x) y", 250, 50, 9876));
    assertEquals("C2 Compiler (x) y", s.name());
    assertEquals(300, s.cpuTicks());
    assertEquals(3.0, s.cpuSeconds());
    assertEquals(9876, s.startTicks());
  }

  @Test
  void aLineThatIsNoStatLineIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> ProcStat.parse("no such line"));
  }
}
