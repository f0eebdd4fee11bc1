package dev.ingestbench.consumer.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompilerThreadsCpuTest {
  @TempDir Path tasks;

  @Test
  void countsThisJvmsCompilerThreadsAndOnlyWhatIsNew() {
    assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux's per-thread counters");
    CompilerThreadsCpu jit = new CompilerThreadsCpu();

    double sinceStart = jit.sinceLast();
    double again = jit.sinceLast();

    // A JVM that started JUnit has compiled plenty; a few milliseconds later, hardly anything.
    assertTrue(sinceStart > 0, "since the JVM started: " + sinceStart);
    assertTrue(again >= 0 && again < sinceStart, "since the first reading: " + again);
  }

  @Test
  void onlyCompilerThreadsCountAndAThreadIdGivenAgainIsAnotherThread() throws IOException {
    thread("101", "C2 CompilerThre", 300, 100, 5000);
    thread("102", "C1 CompilerThre", 50, 10, 5000);
    thread("103", "main", 9000, 900, 4000);
    thread("104", "a (C2 CompilerThre)", 7000, 0, 4000); // a name with parentheses is not one
    CompilerThreadsCpu jit = new CompilerThreadsCpu(tasks);
    assertEquals(4.6, jit.sinceLast(), 1e-9, "(300 + 100 + 50 + 10) ticks");

    thread("101", "C2 CompilerThre", 400, 100, 5000); // 100 ticks more
    Files.walk(tasks.resolve("102"))
        .sorted((a, b) -> b.compareTo(a))
        .forEach(CompilerThreadsCpuTest::delete);
    assertEquals(1.0, jit.sinceLast(), 1e-9, "an ended thread takes nothing away");

    thread("101", "C2 CompilerThre", 30, 0, 9000); // id 101 again, a thread started later
    assertEquals(0.3, jit.sinceLast(), 1e-9, "a new thread counts from its start, never below 0");
  }

  @Test
  void aThreadIdOnceAnotherThreadsIsReadAgainInAWhile() throws IOException {
    thread("101", "C2 CompilerThre", 100, 0, 5000);
    thread("103", "main", 9000, 900, 4000);
    CompilerThreadsCpu jit = new CompilerThreadsCpu(tasks);
    jit.sinceLast();
    thread("103", "C1 CompilerThre", 200, 0, 8000); // id 103 given to a new compiler thread
    double counted = 0;
    for (int i = 0; i < 60; i++) {
      counted += jit.sinceLast();
    }
    assertEquals(2.0, counted, 1e-9, "found again within a minute of readings");
  }

  @Test
  void noCompilerThreadIsUnknownNotZero() throws IOException {
    thread("103", "main", 9000, 900, 4000);
    assertTrue(Double.isNaN(new CompilerThreadsCpu(tasks).sinceLast()));
    assertTrue(Double.isNaN(new CompilerThreadsCpu(tasks.resolve("absent")).sinceLast()));
  }

  /** A per-thread directory whose stat has this name, utime, stime and start time. */
  private void thread(String tid, String name, long utime, long stime, long start)
      throws IOException {
    Path dir = Files.createDirectories(tasks.resolve(tid));
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
    // cutime cstime priority nice threads itrealvalue starttime ...
    Files.writeString(
        dir.resolve("stat"),
        tid
            + " ("
            + name
            + ") S 1 1 1 0 -1 0 0 0 0 0 "
            + utime
            + " "
            + stime
            + " 0 0 20 0 40 0 "
            + start
            + " 0 0\n");
  }

  private static void delete(Path p) {
    try {
      Files.delete(p);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
