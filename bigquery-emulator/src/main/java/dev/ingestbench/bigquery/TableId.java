package dev.ingestbench.bigquery;

import dev.ingestbench.contracts.RunFiles;

/** A table's three-part name, parsed from the resource names the Storage Write API uses. */
record TableId(String project, String dataset, String table) {

  /**
   * Parses {@code projects/P/datasets/D/tables/T}, optionally followed by {@code /streams/S} and
   * with a partition decorator ({@code T$20240101}) dropped.
   */
  static TableId parse(String resource) {
    String[] parts = resource.split("/");
    if (parts.length < 6
        || !parts[0].equals("projects")
        || !parts[2].equals("datasets")
        || !parts[4].equals("tables")) {
      throw WriteApiException.invalid(
          resource, "not a table name: " + resource + " (expected projects/P/datasets/D/tables/T)");
    }
    String table = parts[5];
    int decorator = table.indexOf('$');
    return new TableId(parts[1], parts[3], decorator < 0 ? table : table.substring(0, decorator));
  }

  String resource() {
    return "projects/" + project + "/datasets/" + dataset + "/tables/" + table;
  }

  boolean isDeadLetterTable() {
    return RunFiles.isDeadLetterTable(table);
  }
}
