package dev.ingestbench.bigquery;

/**
 * The tables.get and tables.insert requests the REST API served and refused, each method under its
 * own quota ({@link ApiLimits#tablesPerSecond}): what CREATE_IF_NEEDED costs with many tables.
 */
final class TablesApiCalls {
  final MethodQuota get;
  final MethodQuota insert;

  TablesApiCalls(ApiLimits limits) {
    long now = System.nanoTime();
    this.get = new MethodQuota(limits.tablesPerSecond(), now);
    this.insert = new MethodQuota(limits.tablesPerSecond(), now);
  }
}
