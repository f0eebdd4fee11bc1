package dev.ingestbench.harness.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The whole machine's CPU time from {@code /proc/stat}'s first line: what every process on it used,
 * the emulators, the publisher and other people's work included, not only the pipeline's.
 *
 * @param busy jiffies spent on anything but idle and I/O wait (steal included)
 * @param total all jiffies
 * @param steal jiffies the hypervisor ran other machines while this one wanted to run
 */
public record MachineCpu(long busy, long total, long steal) {
  private static final Path STAT = Path.of("/proc/stat");

  /** Now; zeros where {@code /proc/stat} cannot be read (not Linux). */
  public static MachineCpu now() {
    try {
      String line = Files.readAllLines(STAT).get(0);
      return parse(line);
    } catch (IOException | RuntimeException e) {
      return new MachineCpu(0, 0, 0);
    }
  }

  /** {@code cpu user nice system idle iowait irq softirq steal ...}. */
  static MachineCpu parse(String line) {
    String[] f = line.trim().split("\\s+");
    long total = 0;
    for (int i = 1; i < f.length && i <= 8; i++) {
      total += Long.parseLong(f[i]);
    }
    long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
    long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
    return new MachineCpu(total - idle, total, steal);
  }

  /** Whether this reading holds anything (zeros: not Linux). */
  public boolean known() {
    return total > 0;
  }

  /** The busy share of the machine between {@code earlier} and this reading; NaN when unknown. */
  public double busyShareSince(MachineCpu earlier) {
    long t = total - earlier.total;
    return t <= 0 ? Double.NaN : (double) (busy - earlier.busy) / t;
  }
}
