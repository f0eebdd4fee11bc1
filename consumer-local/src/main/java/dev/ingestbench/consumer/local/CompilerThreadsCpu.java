package dev.ingestbench.consumer.local;

import dev.ingestbench.contracts.ProcStat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The CPU this JVM's JIT compiler threads used, from Linux's per-thread accounting ({@code
 * /proc/self/task/TID/stat}). Why it is kept: a short local run's consumer spends a large share of
 * its CPU compiling its own code (41% over a default round; 41-54% of each 2 s of a 1,500,000-row
 * run while rows flowed, 17-18% at its end), which a worker that runs for hours has long done; its
 * rows per CPU-second would otherwise mix the pipeline's cost per row with the JVM's warm-up.
 *
 * <p>HotSpot adds and removes compiler threads as the work comes and goes; a thread that ends
 * between two readings takes the CPU it used since the first of them with it, so the figure errs
 * low, never high.
 */
final class CompilerThreadsCpu {
  private static final Path OWN_TASKS = Path.of("/proc/self/task");

  /** The directory of per-thread directories: this JVM's, or a test's copy of its shape. */
  private final Path tasks;

  /**
   * Each compiler thread's ticks at the last reading, keyed by thread id and start time (a thread
   * id Linux gives again later is another thread); only the threads of that reading.
   */
  private Map<String, Long> lastTicks = new HashMap<>();

  /**
   * Threads read once and found not to be compiler threads: not read again, so that a reading of a
   * consumer's ~200 threads reads the few compiler threads' files (0.19 ms of CPU a reading of 200
   * threads; 2.3 ms when every thread was read). Forgotten every {@link #RECHECK_EVERY} readings:
   * Linux gives a thread id again once its thread has ended.
   */
  private final Set<String> others = new HashSet<>();

  private static final int RECHECK_EVERY = 60;

  private int readings;

  /** Whether this system has the per-thread counters; false: every reading is NaN. */
  private final boolean available;

  CompilerThreadsCpu() {
    this(OWN_TASKS);
  }

  CompilerThreadsCpu(Path tasks) {
    this.tasks = tasks;
    this.available = Files.isDirectory(tasks);
  }

  /**
   * CPU-seconds the compiler threads used since the previous call (since the JVM started, on the
   * first); NaN where the counters cannot be read or no compiler thread is found (an interpreted
   * JVM, another compiler's threads, another JDK's thread names): unknown, never 0.
   */
  double sinceLast() {
    if (!available) {
      return Double.NaN;
    }
    long ticks = 0;
    Map<String, Long> seen = new HashMap<>();
    if (++readings % RECHECK_EVERY == 0) {
      others.clear();
    }
    try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
      for (Path thread : threads) {
        if (others.contains(thread.getFileName().toString())) {
          continue;
        }
        String stat;
        try {
          stat = Files.readString(thread.resolve("stat"), StandardCharsets.US_ASCII);
        } catch (IOException ended) {
          continue; // the thread ended while the directory was read
        }
        ProcStat compiler = ProcStat.parse(stat);
        if (!compiler.name().startsWith("C") || !compiler.name().startsWith("CompilerThre", 3)) {
          // "C1 CompilerThre", "C2 CompilerThre" are: the name cut to 15 characters
          others.add(thread.getFileName().toString());
          continue;
        }
        long now = compiler.cpuTicks();
        String key = thread.getFileName() + "@" + compiler.startTicks();
        seen.put(key, now);
        Long before = lastTicks.get(key);
        ticks += now - (before == null ? 0 : before);
      }
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
    lastTicks = seen;
    return seen.isEmpty() ? Double.NaN : ticks / ProcStat.TICKS_PER_SECOND;
  }
}
