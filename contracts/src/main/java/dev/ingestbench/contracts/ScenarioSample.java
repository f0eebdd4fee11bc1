package dev.ingestbench.contracts;

import java.util.Locale;

/**
 * One line of {@link RunFiles#SCENARIO_SAMPLES}: one job in one interval ({@code seconds} long,
 * starting at {@code epochSecond}) of a running scenario. Stage and job names are lower-case
 * letters, digits and dashes (the scenario file's rule), so the line needs no quoting.
 */
public record ScenarioSample(
    long epochSecond,
    String stage,
    String job,
    long rows,
    long bytes,
    int openConnections,
    double cpuSeconds,
    long accountedFor,
    int seconds) {

  /** A one-second sample (the local target's). */
  public ScenarioSample(
      long epochSecond,
      String stage,
      String job,
      long rows,
      long bytes,
      int openConnections,
      double cpuSeconds,
      long accountedFor) {
    this(epochSecond, stage, job, rows, bytes, openConnections, cpuSeconds, accountedFor, 1);
  }

  /** The header line, {@link ScenarioSampleColumns#ALL}. */
  public static String header() {
    return String.join(",", ScenarioSampleColumns.ALL);
  }

  public String toCsvLine() {
    return String.format(
        Locale.ROOT,
        "%d,%s,%s,%d,%d,%d,%.3f,%d,%d",
        epochSecond,
        stage,
        job,
        rows,
        bytes,
        openConnections,
        cpuSeconds,
        accountedFor,
        seconds);
  }

  /**
   * Parses a line written by {@link #toCsvLine} (or, without {@code seconds}, by an older version).
   */
  public static ScenarioSample parse(String line) {
    String[] f = line.split(",", -1);
    int all = ScenarioSampleColumns.ALL.size();
    if (f.length != all && f.length != all - 1) {
      throw new IllegalArgumentException(
          "expected "
              + ScenarioSampleColumns.ALL.size()
              + " columns ("
              + header()
              + "), found "
              + f.length
              + ": "
              + line);
    }
    return new ScenarioSample(
        Long.parseLong(f[0]),
        f[1],
        f[2],
        Long.parseLong(f[3]),
        Long.parseLong(f[4]),
        Integer.parseInt(f[5]),
        Double.parseDouble(f[6]),
        Long.parseLong(f[7]),
        f.length == all ? Integer.parseInt(f[8]) : 1);
  }
}
