package dev.ingestbench.harness.round;

import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.harness.staged.JobAccounts;
import dev.ingestbench.harness.staged.LocalJobs;
import dev.ingestbench.harness.staged.StageTarget;
import dev.ingestbench.verification.JobCounts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;

/**
 * A round's accounts: each job's consumer's own, its progress lines while it runs and its {@code
 * consumer_result.json} (rows read back from the local BigQuery, their content checked) once it
 * stopped ({@link RoundJobCounts}). A round measures nothing while it runs ({@link
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
    return RoundJobCounts.read(
        spec.out(),
        plan.jobDirectory(plan.jobNumber(job)),
        plan.processName(job),
        exactlyOnce,
        spec.timeoutSeconds(),
        jobs.log(job, spec.out()));
  }

  /** A round is never fed: nothing asks. */
  @Override
  public EmulatorStatus status() {
    throw new UnsupportedOperationException("a round's accounts are its consumers' results");
  }
}
