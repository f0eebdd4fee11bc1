package dev.ingestbench.analysis.source;

import java.util.Map;

/**
 * What the per-minute series readers share: the first of several accepted column names a row has.
 */
final class CsvRows {
  private CsvRows() {}

  /** The value of the first of {@code names} present in {@code row}, or null. */
  static String first(Map<String, String> row, String... names) {
    for (String name : names) {
      if (row.containsKey(name)) {
        return row.get(name);
      }
    }
    return null;
  }
}
