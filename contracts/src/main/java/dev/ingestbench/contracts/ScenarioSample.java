package dev.ingestbench.contracts;

import java.util.Locale;

/**
 * One line of {@link RunFiles#SCENARIO_SAMPLES}: one job in one second of a running scenario.
 * Stage and job names are lower-case letters, digits and dashes (the scenario file's rule), so the
 * line needs no quoting.
 */
public record ScenarioSample(
    long epochSecond,
    String stage,
    String job,
    long rows,
    long bytes,
    int openConnections,
    double cpuSeconds,
    long accountedFor) {

  /** The header line, {@link ScenarioSampleColumns#ALL}. */
  public static String header() {
    return String.join(",", ScenarioSampleColumns.ALL);
  }

  public String toCsvLine() {
    return String.format(Locale.ROOT, "%d,%s,%s,%d,%d,%d,%.3f,%d",
        epochSecond, stage, job, rows, bytes, openConnections, cpuSeconds, accountedFor);
  }

  /** Parses a line written by {@link #toCsvLine}; the message names what is wrong. */
  public static ScenarioSample parse(String line) {
    String[] f = line.split(",", -1);
    if (f.length != ScenarioSampleColumns.ALL.size()) {
      throw new IllegalArgumentException("expected " + ScenarioSampleColumns.ALL.size() + " columns ("
          + header() + "), found " + f.length + ": " + line);
    }
    return new ScenarioSample(Long.parseLong(f[0]), f[1], f[2], Long.parseLong(f[3]), Long.parseLong(f[4]),
        Integer.parseInt(f[5]), Double.parseDouble(f[6]), Long.parseLong(f[7]));
  }
}
