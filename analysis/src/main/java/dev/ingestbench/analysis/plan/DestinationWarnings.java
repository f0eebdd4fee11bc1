package dev.ingestbench.analysis.plan;

import dev.ingestbench.contracts.job.TableCreation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What many destination tables cost beyond rows: the pool's size against the tables, the table
 * checks of CREATE_IF_NEEDED against the tables API's quota, and exactly-once's stream creation
 * against BigQuery's guidance. docs/destinations.md measures each.
 */
final class DestinationWarnings {
  /** BigQuery's per-method API quota: tables.get and tables.insert, each. */
  static final double TABLES_API_PER_SECOND = 100;

  /** BigQuery's guidance: above 40-50 CreateWriteStream calls a second latency grows past 25 s. */
  static final double CREATE_WRITE_STREAM_PER_SECOND = 40;

  /** From this many tables on, making them as the write reaches them is worth a warning. */
  static final int MANY_TABLES = 100;

  private DestinationWarnings() {}

  static List<String> of(PlanRequest r, long workersAllJobs) {
    List<String> warnings = new ArrayList<>();
    int tables = r.destinationTables();
    if (r.connectionPool() && tables > r.maxPoolConnections()) {
      warnings.add(
          fmt(
              "Pool: %,d tables share at most %,d pooled connections per worker"
                  + " (--maxConnectionPoolConnections); Beam's documentation asks for at least one"
                  + " per destination: give --maxConnectionPoolConnections=%d, which allows up to"
                  + " %,d connections over %,d worker(s) against the limit of %,d",
              tables,
              r.maxPoolConnections(),
              tables,
              (long) tables * workersAllJobs,
              workersAllJobs,
              CapacityPlan.CONNECTION_LIMIT));
    }
    if (r.tableCreation() == TableCreation.IF_NEEDED && tables >= MANY_TABLES) {
      warnings.add(
          fmt(
              "Tables: %,d made as the write first reaches each (CREATE_IF_NEEDED): Beam fails the"
                  + " table's first append, calls tables.get and tables.insert, and waits 0.25-0.75 s"
                  + " before it tries again, one table after another in each writing thread: rows"
                  + " reach the last table about half a second per table and thread after the first"
                  + " (docs/destinations.md measures it); the %,d tables.get and %,d tables.insert"
                  + " calls take at least %,.0f s at"
                  + " BigQuery's %,.0f requests a second per method. Make the tables ahead"
                  + " (round --create-tables ahead; bq mk or Terraform for a job of your own)",
              tables, tables, tables, tables / TABLES_API_PER_SECOND, TABLES_API_PER_SECOND));
    }
    if (r.writeMethod().equals("exactly-once")) {
      long streams = (long) Planner.EXACTLY_ONCE_PER_WORKER_AND_TABLE * tables * workersAllJobs;
      double seconds = streams / CREATE_WRITE_STREAM_PER_SECOND;
      if (seconds > 10) {
        warnings.add(
            fmt(
                "Streams: exactly-once opens about %,d write streams at start (%,d per worker and"
                    + " table): at BigQuery's guidance of %,.0f CreateWriteStream calls a second"
                    + " that is %,.0f s, and above it each call's latency grows past 25 s; fewer"
                    + " tables per job, or at-least-once with the connection pool",
                streams,
                Planner.EXACTLY_ONCE_PER_WORKER_AND_TABLE,
                CREATE_WRITE_STREAM_PER_SECOND,
                seconds));
      }
    }
    return warnings;
  }

  private static String fmt(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
