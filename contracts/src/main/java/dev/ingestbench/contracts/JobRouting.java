package dev.ingestbench.contracts;

import dev.ingestbench.contracts.job.TableRouting;
import dev.ingestbench.contracts.job.TableSkew;

/**
 * What a job declares to the local BigQuery before it writes: its rows go to {@code
 * DATASET.TABLE_0..TABLE_N-1} by {@link TableRouting}. The emulator then checks each of the job's
 * rows by the job's own routing, so two jobs that share table names and route differently are each
 * checked by theirs (a table's description can state only one).
 *
 * @param skew {@code uniform} or {@code zipf:S}
 */
public record JobRouting(String dataset, String table, int tables, String skew) {
  /** The HTTP path a job PUTs its routing to on the server's REST port. */
  public static String path(String job) {
    return "/ingestbench/v1/jobs/" + job + "/routing";
  }

  public TableRouting routing() {
    return new TableRouting(tables, TableSkew.fromYaml(skew));
  }
}
