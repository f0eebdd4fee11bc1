package dev.ingestbench.contracts.job;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which of a job's destination tables each event goes to, decided by its event index alone: the
 * consumer routes by it and the local BigQuery verifies every row against it, so a row in another
 * table than its event's is caught (apache/beam#32335 is that class of bug).
 *
 * <p>Uniform keeps the plain {@code index mod tables}. Zipf hashes the index to a point in [0, 1)
 * and takes the table whose share of the cumulative distribution holds it: the same event always
 * goes to the same table, whatever order the events come in.
 *
 * @param tables how many tables, 1 to {@link #MAX_TABLES}
 */
public record TableRouting(int tables, TableSkew skew) implements Serializable {
  /**
   * The most tables a job may write: what has been measured locally (docs/destinations.md). Each
   * table costs the local BigQuery its state and the verifier nothing more.
   */
  public static final int MAX_TABLES = 10_000;

  public static final TableRouting ONE = new TableRouting(1, TableSkew.UNIFORM);

  /** The cumulative shares of each Zipf routing, computed once per JVM (80 KB at 10,000 tables). */
  private static final Map<TableRouting, double[]> CUMULATIVE = new ConcurrentHashMap<>();

  private static final String DESCRIPTION_PREFIX = "ingestbench routing: ";
  private static final Pattern DESCRIPTION =
      Pattern.compile(
          Pattern.quote(DESCRIPTION_PREFIX)
              + "(\\d+) tables, ([a-z]+(?::[0-9.]+)?) by event index");

  public TableRouting {
    if (tables < 1 || tables > MAX_TABLES) {
      throw new IllegalArgumentException(outOfRange(tables));
    }
    if (skew == null) {
      throw new IllegalArgumentException("a skew is required: uniform or zipf:S");
    }
  }

  /** Why {@code tables} is refused, for the flag or key that gave it. */
  public static String outOfRange(long tables) {
    return tables
        + " must be 1 to "
        + String.format(java.util.Locale.ROOT, "%,d", MAX_TABLES)
        + " (the most measured here); give a number in that range";
  }

  /** The table (0 to tables-1) of the event with this index. */
  public int tableOf(long eventIndex) {
    if (tables == 1) {
      return 0;
    }
    if (skew.uniform()) {
      return (int) Math.floorMod(eventIndex, (long) tables);
    }
    double[] cumulative = CUMULATIVE.computeIfAbsent(this, TableRouting::cumulative);
    int at = Arrays.binarySearch(cumulative, unit(eventIndex));
    // Not found: -(insertion point) - 1; the insertion point is the first bound above the point.
    return Math.min(at >= 0 ? at + 1 : -at - 1, tables - 1);
  }

  /** The share of rows table {@code k} is meant to get. */
  public double share(int k) {
    if (skew.uniform()) {
      return 1.0 / tables;
    }
    double[] cumulative = CUMULATIVE.computeIfAbsent(this, TableRouting::cumulative);
    return cumulative[k] - (k == 0 ? 0 : cumulative[k - 1]);
  }

  /**
   * What the consumer writes as each table's description, so that the local BigQuery knows the
   * routing of a table it is sent rows for without being told by anyone else; null for one table.
   */
  public String description() {
    return tables == 1
        ? null
        : DESCRIPTION_PREFIX + tables + " tables, " + skew.flag() + " by event index";
  }

  /** The routing a table's description states, or null when it states none. */
  public static TableRouting fromDescription(String description) {
    if (description == null) {
      return null;
    }
    Matcher m = DESCRIPTION.matcher(description);
    if (!m.matches()) {
      return null;
    }
    try {
      return new TableRouting(Integer.parseInt(m.group(1)), TableSkew.fromYaml(m.group(2)));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * The destination number of a table the consumer named {@code BASE_k}, or -1 when its name has
   * none.
   */
  public static int indexOfTable(String tableId) {
    int underscore = tableId.lastIndexOf('_');
    if (underscore < 0 || underscore == tableId.length() - 1) {
      return -1;
    }
    try {
      return Integer.parseInt(tableId.substring(underscore + 1));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private double[] cumulative() {
    double[] c = new double[tables];
    double sum = 0;
    for (int k = 0; k < tables; k++) {
      // StrictMath: the consumer and the emulator must draw the same bounds on any JVM and CPU.
      sum += StrictMath.pow(k + 1, -skew.exponent());
      c[k] = sum;
    }
    for (int k = 0; k < tables; k++) {
      c[k] /= sum;
    }
    c[tables - 1] = 1.0;
    return c;
  }

  /** The index mixed (SplitMix64's finalizer) to a point in [0, 1): neighbours land far apart. */
  static double unit(long index) {
    long z = index + 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z = z ^ (z >>> 31);
    return (z >>> 11) * 0x1.0p-53;
  }
}
