package dev.ingestbench.harness.round;

import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.PublisherResult;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.harness.staged.JobAccounts;
import dev.ingestbench.harness.staged.LocalJobs;
import dev.ingestbench.harness.staged.StageTarget;
import dev.ingestbench.verification.JobCounts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * A round's accounts: each job's consumer's own, its progress lines while it runs and its {@code
 * consumer_result.json} (rows read back from the local BigQuery, their content checked) once it
 * stopped ({@link #read}). A round measures nothing while it runs ({@link
 * StageTarget.Measures#NOTHING}): a running job counts as having accounted for nothing, so that
 * only its consumer's own stop, once it has accounted for every message, ends the stage.
 */
final class ConsumerResultAccounts implements JobAccounts {
  private final RoundSpec spec;
  private final RoundPlan plan;
  private final LocalJobs jobs;

  ConsumerResultAccounts(RoundSpec spec, RoundPlan plan, LocalJobs jobs) {
    this.spec = spec;
    this.plan = plan;
    this.jobs = jobs;
  }

  @Override
  public long progress(String job) {
    return jobs.progress(job);
  }

  /**
   * Once stopped, what the job counted is its result (its last progress line may predate its final
   * count).
   */
  @Override
  public StageTarget.JobReading read(String job, OptionalInt exit, long expected, Path log)
      throws IOException {
    long accounted = 0;
    if (exit.isPresent()) {
      Path result = resultOf(job);
      accounted =
          Files.exists(result)
              ? RunJson.read(result, ConsumerResult.class).accountedFor()
              : jobs.progress(job);
    }
    return new StageTarget.JobReading(exit, expected, accounted, false, log);
  }

  private Path resultOf(String job) {
    return plan.jobDirectory(plan.jobNumber(job)).resolve(RunFiles.CONSUMER_RESULT);
  }

  /** Read by {@link #count} itself from the publishers' results. */
  @Override
  public Long published() {
    return null;
  }

  @Override
  public JobCounts count(
      String stage, String job, boolean exactlyOnce, Long published, String whyUnknown)
      throws IOException {
    return read(
        spec.out(),
        published,
        whyUnknown,
        plan.jobDirectory(plan.jobNumber(job)),
        plan.processName(job),
        exactlyOnce,
        spec.timeoutSeconds(),
        jobs.log(job, spec.out()));
  }

  /**
   * A round job's figures, from the files its processes wrote: its consumer's result (rows read
   * back from the local BigQuery, their content checked) and the publishers' results (what Pub/Sub
   * or Kafka acknowledged). A round's consumer reads until it has accounted for everything or its
   * timeout, so what it left is not counted; a timeout, or no result at all, makes the figures
   * unable to decide.
   *
   * @param out the round's directory (the publishers' results)
   * @param fed what a feed gave the job (--feed), or null: the publishers' results say
   * @param whyUnknown why what was published is not known (a feed that failed), or null
   * @param jobDirectory the job's directory (its consumer's result)
   * @param name the consumer's process name, as the verdict names the job
   * @param log the consumer's log, named when its result is missing
   */
  static JobCounts read(
      Path out,
      Long fed,
      String whyUnknown,
      Path jobDirectory,
      String name,
      boolean exactlyOnce,
      long timeoutSeconds,
      Path log)
      throws IOException {
    long published = fed != null ? fed : acknowledged(out);
    Path result = jobDirectory.resolve(RunFiles.CONSUMER_RESULT);
    if (!Files.exists(result)) {
      return new JobCounts(null, name, exactlyOnce, published, 0, 0, 0, 0, 0, null, null)
          .unverified("its consumer wrote no " + RunFiles.CONSUMER_RESULT + "; see " + log);
    }
    ConsumerResult r = RunJson.read(result, ConsumerResult.class);
    JobCounts counts = JobCounts.of(null, name, exactlyOnce, published, r, r.accountedFor(), null);
    if (whyUnknown != null) {
      counts = counts.unverified(whyUnknown);
    } else if (String.valueOf(r.stopReason()).startsWith(ConsumerResult.PIPELINE_ENDED)
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

  /**
   * What the publishers' results say the source acknowledged: the backlog and the live messages.
   */
  private static long acknowledged(Path out) throws IOException {
    long published = 0;
    for (String file : List.of(RunFiles.PUBLISHER_BACKLOG, RunFiles.PUBLISHER_LIVE)) {
      Path p = out.resolve(file);
      if (Files.exists(p)) {
        published += RunJson.read(p, PublisherResult.class).published();
      }
    }
    return published;
  }
}
