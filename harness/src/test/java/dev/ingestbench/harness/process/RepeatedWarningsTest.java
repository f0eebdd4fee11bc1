package dev.ingestbench.harness.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A child's repeated warnings reach the console a few a minute; everything else passes. */
class RepeatedWarningsTest {
  private static final long SECOND = 1_000_000_000L;

  private static String refused(int i) {
    return String.format(
        "15:55:%02d ERROR StorageApiWritesShardedRecords - Got error RESOURCE_EXHAUSTED: the cell"
            + " quota refills in %d.%d s. Entity: projects/p/streams/2174dd49-17a7-%04x",
        i % 60, i % 10, i % 7, i);
  }

  @Test
  void aRepeatedWarningIsShownThreeTimesAMinuteAndTheRestCounted() {
    RepeatedWarnings r = new RepeatedWarnings("consumer.log");
    List<String> shown = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      shown.addAll(r.admit(refused(i), i * SECOND / 10)); // 100 in 10 s
    }
    assertEquals(List.of(refused(0), refused(1), refused(2)), shown);
    List<String> next = r.admit(refused(100), 61 * SECOND);
    assertEquals(2, next.size(), next.toString());
    assertEquals(
        "(97 more like \""
            + RepeatedWarnings.shape(refused(3))
            + "\" held back; every line is in"
            + " consumer.log)",
        next.get(0));
    assertEquals(refused(100), next.get(1), "a new window shows the line again");
    r.admit(refused(101), 62 * SECOND);
    r.admit(refused(102), 63 * SECOND);
    r.admit(refused(103), 64 * SECOND);
    assertEquals(1, r.flush().size(), "the last window's one held back, said at the end");
    assertEquals(List.of(), r.flush(), "said once");
  }

  @Test
  void progressOtherWarningsAndInfoLinesAlwaysPass() {
    RepeatedWarnings r = new RepeatedWarnings("consumer.log");
    for (int i = 0; i < 10; i++) {
      String progress = "15:55:37 INFO LocalRun - " + i + " s: 126,534 rows written";
      assertEquals(List.of(progress), r.admit(progress, i));
    }
    for (int i = 0; i < 3; i++) {
      r.admit(refused(i), i);
    }
    String other = "15:55:40 WARN TablesAhead - table t_1 exists";
    assertEquals(List.of(other), r.admit(other, 4), "another shape has its own count");
    assertEquals(List.of(), r.admit(refused(9), 5), "the fourth of a shape in a minute");
  }

  /** A message over several lines is held back whole, and the next message shows again. */
  @Test
  void theLinesOfAHeldBackMessageAreHeldBackWithIt() {
    RepeatedWarnings r = new RepeatedWarnings("consumer.log");
    for (int i = 0; i < 3; i++) {
      assertEquals(List.of(refused(i)), r.admit(refused(i), i));
      assertEquals(List.of("  details " + i), r.admit("  details " + i, i), "shown with its first");
    }
    assertEquals(List.of(), r.admit(refused(3), 3));
    assertEquals(List.of(), r.admit("io.grpc.StatusRuntimeException: RESOURCE_EXHAUSTED", 3));
    assertEquals(List.of(), r.admit("\tcom.google.Foo.bar(Foo.java:1)", 3));
    String progress = "15:55:37 INFO LocalRun - 41 s: 126,534 rows written";
    assertEquals(List.of(progress), r.admit(progress, 4));
    assertEquals(List.of("a line of its own"), r.admit("a line of its own", 4));
  }
}
