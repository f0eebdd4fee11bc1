package dev.ingestbench.contracts;

/**
 * The fields a CPU figure needs from one Linux {@code /proc/PID/stat} (or {@code
 * /proc/PID/task/TID/stat}) line: the name, the CPU used (utime + stime) and when it started, all
 * in clock ticks.
 *
 * @param name the command or thread name (cut to 15 characters by the kernel)
 * @param cpuTicks utime + stime
 * @param startTicks starttime: with the id, what tells a process or thread from a later one that
 *     was given the same id
 */
public record ProcStat(String name, long cpuTicks, long startTicks) {
  /** Clock ticks per second of those counters, and of {@code /proc/stat}'s (USER_HZ). */
  public static final double TICKS_PER_SECOND = 100;

  /**
   * Parses a stat line.
   *
   * @throws IllegalArgumentException when it is not one
   */
  public static ProcStat parse(String stat) {
    int open = stat.indexOf('(');
    int close = stat.lastIndexOf(')');
    if (open < 0 || close < open) {
      throw new IllegalArgumentException("not a /proc stat line: " + stat);
    }
    // The name may hold spaces and parentheses: the fields after it start after the last ')'.
    // State is field 3; utime 14, stime 15, starttime 22.
    String[] f = stat.substring(close + 2).split(" ");
    return new ProcStat(
        stat.substring(open + 1, close),
        Long.parseLong(f[11]) + Long.parseLong(f[12]),
        Long.parseLong(f[19]));
  }

  public double cpuSeconds() {
    return cpuTicks / TICKS_PER_SECOND;
  }
}
