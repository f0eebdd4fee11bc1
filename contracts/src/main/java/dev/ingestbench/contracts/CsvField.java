package dev.ingestbench.contracts;

/**
 * One CSV field as RFC 4180 writes it: quoted, with its quotes doubled, when it holds a comma, a
 * quote or a line break. Names in the CSV files come from clients (a table in a write stream's
 * path, a job in a trace id), so they cannot be trusted to be plain.
 */
public final class CsvField {
  private CsvField() {}

  public static String of(String value) {
    if (value == null) {
      return "";
    }
    if (value.indexOf(',') < 0
        && value.indexOf('"') < 0
        && value.indexOf('\n') < 0
        && value.indexOf('\r') < 0) {
      return value;
    }
    return '"' + value.replace("\"", "\"\"") + '"';
  }
}
