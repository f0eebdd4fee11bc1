package dev.ingestbench.contracts;

import java.util.Base64;
import java.util.BitSet;

/**
 * The event indexes one job has accounted for (written or dead-lettered), served by the local
 * BigQuery at {@code /ingestbench/v1/jobs/JOB/accounted}: what a run needs to count what a stopped
 * job left in its source without counting a message twice. One bit per index, so a million messages
 * take 125 KB.
 *
 * @param job the job (the writer's trace id)
 * @param bits {@link BitSet#toByteArray()} in base64
 */
public record AccountedIndexes(String job, String bits) {
  /** The HTTP path of job {@code job}'s indexes on the server's REST port. */
  public static String path(String job) {
    return "/ingestbench/v1/jobs/" + job + "/accounted";
  }

  public static AccountedIndexes of(String job, BitSet indexes) {
    return new AccountedIndexes(job, Base64.getEncoder().encodeToString(indexes.toByteArray()));
  }

  public BitSet indexes() {
    return BitSet.valueOf(Base64.getDecoder().decode(bits));
  }
}
