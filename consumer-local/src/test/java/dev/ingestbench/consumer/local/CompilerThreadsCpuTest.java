package dev.ingestbench.consumer.local;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CompilerThreadsCpuTest {
  @Test
  void countsTheCompilerThreadsCpuAndOnlyWhatIsNew() {
    assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux's per-thread counters");
    CompilerThreadsCpu jit = new CompilerThreadsCpu();

    double sinceStart = jit.sinceLast();
    double again = jit.sinceLast();

    // A JVM that started JUnit has compiled plenty; a few milliseconds later, hardly anything.
    assertTrue(sinceStart > 0, "since the JVM started: " + sinceStart);
    assertTrue(again >= 0 && again < sinceStart, "since the first reading: " + again);
  }
}
