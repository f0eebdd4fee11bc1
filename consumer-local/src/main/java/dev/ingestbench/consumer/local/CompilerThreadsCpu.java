package dev.ingestbench.consumer.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The CPU this JVM's JIT compiler threads used, from Linux's per-thread accounting ({@code
 * /proc/self/task/TID/stat}). Why it is kept: a short local run's consumer spends a large share of
 * its CPU compiling its own code (41% over a default round, 17-40% of each second of a
 * 1,500,000-row run), which a worker that runs for hours has long done; its rows per CPU-second
 * would otherwise mix the pipeline's cost per row with the JVM's warm-up.
 *
 * <p>HotSpot adds and removes compiler threads as the work comes and goes; a thread that ends
 * between two readings takes the CPU it used since the first of them with it, so the figure errs
 * low, never high.
 */
final class CompilerThreadsCpu {
  private static final Path TASKS = Path.of("/proc/self/task");

  /** Linux's clock ticks per second for these counters (USER_HZ): 100 on every common kernel. */
  private static final double TICKS_PER_SECOND = 100;

  /** Each compiler thread's ticks at the last reading. */
  private final Map<String, Long> lastTicks = new HashMap<>();

  /** Whether this system has the per-thread counters; false: every reading is NaN. */
  private final boolean available = Files.isDirectory(TASKS);

  /**
   * CPU-seconds the compiler threads used since the previous call (since the JVM started, on the
   * first); NaN where the counters cannot be read.
   */
  double sinceLast() {
    if (!available) {
      return Double.NaN;
    }
    long ticks = 0;
    try (DirectoryStream<Path> threads = Files.newDirectoryStream(TASKS)) {
      for (Path thread : threads) {
        String stat;
        try {
          stat = Files.readString(thread.resolve("stat"), StandardCharsets.US_ASCII);
        } catch (IOException ended) {
          continue; // the thread ended while the directory was read
        }
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        if (open < 0
            || close < open
            || !stat.startsWith("C", open + 1)
            || !stat.startsWith("CompilerThre", open + 4)) {
          continue; // "C1 CompilerThre", "C2 CompilerThre": the name cut to 15 characters
        }
        String[] fields = stat.substring(close + 2).split(" ");
        long now = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime + stime
        Long before = lastTicks.put(thread.getFileName().toString(), now);
        ticks += now - (before == null ? 0 : before);
      }
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
    return ticks / TICKS_PER_SECOND;
  }
}
