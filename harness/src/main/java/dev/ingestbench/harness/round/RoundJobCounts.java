package dev.ingestbench.harness.round;

import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.PublisherResult;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.verification.JobCounts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * A round job's figures, from the files its processes wrote: its consumer's result (rows read back
 * from the local BigQuery, their content checked) and the publishers' results (what Pub/Sub or
 * Kafka acknowledged). A round's consumer reads until it has accounted for everything or its
 * timeout, so what it left is not counted; a timeout, or no result at all, makes the figures unable
 * to decide.
 */
final class RoundJobCounts {
  private RoundJobCounts() {}

  /**
   * @param out the round's directory (the publishers' results)
   * @param jobDirectory the job's directory (its consumer's result)
   * @param name the consumer's process name, as the verdict names the job
   * @param log the consumer's log, named when its result is missing
   */
  static JobCounts read(
      Path out, Path jobDirectory, String name, boolean exactlyOnce, long timeoutSeconds, Path log)
      throws IOException {
    long published = 0;
    for (String file : List.of(RunFiles.PUBLISHER_BACKLOG, RunFiles.PUBLISHER_LIVE)) {
      Path p = out.resolve(file);
      if (Files.exists(p)) {
        published += RunJson.read(p, PublisherResult.class).published();
      }
    }
    Path result = jobDirectory.resolve(RunFiles.CONSUMER_RESULT);
    if (!Files.exists(result)) {
      return new JobCounts(null, name, exactlyOnce, published, 0, 0, 0, 0, 0, null, null)
          .unverified("its consumer wrote no " + RunFiles.CONSUMER_RESULT + "; see " + log);
    }
    ConsumerResult r = RunJson.read(result, ConsumerResult.class);
    JobCounts counts =
        new JobCounts(
                null,
                name,
                exactlyOnce,
                published,
                r.rowsWritten(),
                r.distinctMessageIds(),
                r.duplicates(),
                r.deadLettered(),
                r.accountedFor(),
                null,
                null)
            .withMismatched(
                r.mismatchedRows(),
                r.mismatches() == null || r.mismatches().isEmpty() ? null : r.mismatches().get(0))
            .withSourceDuplicates(r.sourceDuplicates());
    if (String.valueOf(r.stopReason()).startsWith(ConsumerResult.PIPELINE_ENDED)
        && r.handled() < published) {
      // The job ended by itself: what it did not account for may still be in its source.
      counts =
          counts.unverified(
              "its pipeline ended by itself ("
                  + r.stopReason()
                  + ") before every message was accounted for, so what it did not account for is"
                  + " not a measured loss; see "
                  + log);
    } else if (String.valueOf(r.stopReason()).contains("timeout")) {
      // Not a verification result: the messages may well have arrived after the consumer stopped.
      counts =
          counts.unverified(
              String.format(
                  Locale.ROOT,
                  "its consumer stopped at --timeout %d s (%s) before"
                      + " every message was accounted for, so what it did not account for is not a measured loss; raise"
                      + " --timeout or lower --messages",
                  timeoutSeconds,
                  r.stopReason()));
    }
    return counts;
  }
}
