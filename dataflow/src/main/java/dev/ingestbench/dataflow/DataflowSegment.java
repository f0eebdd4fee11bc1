package dev.ingestbench.dataflow;

import static dev.ingestbench.harness.staged.RunLog.say;

import dev.ingestbench.contracts.DataflowJobRecord;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.contracts.StopMode;
import dev.ingestbench.harness.process.StartedResources;
import dev.ingestbench.harness.staged.RunDirectory;
import dev.ingestbench.harness.staged.StageTarget;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.verification.JobCounts;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;

/**
 * One start of a scenario on Dataflow: the publishers' jobs (the backlog, unless an earlier attempt
 * published it; the live messages), the consumers' jobs, their counters. Closing it stops the
 * scenario's jobs as configured and cancels the live publisher; Ctrl-C cancels everything.
 */
final class DataflowSegment implements StageTarget.Segment {
  private static final Duration PUBLISH_MAX = Duration.ofHours(6);

  private final int segmentNo;
  private final ScenarioPlan plan;
  private final RunDirectory dir;
  private final GcpSettings target;
  private final DataflowLaunches launches;
  private final DataflowJobControl jobs;
  private final Thread cancelOnExit;
  private DataflowSampler sampler;
  private boolean finished;

  /**
   * When each job's state was last read (System.nanoTime): every job is read once a poll interval.
   */
  private final Map<String, Long> lastStateCheck = new HashMap<>();

  DataflowSegment(
      int segmentNo,
      ScenarioPlan plan,
      RunDirectory dir,
      GcpSettings target,
      DataflowLaunches launches,
      DataflowJobControl jobs) {
    this.segmentNo = segmentNo;
    this.plan = plan;
    this.dir = dir;
    this.target = target;
    this.launches = launches;
    this.jobs = jobs;
    this.cancelOnExit = new Thread(jobs::cancelEverything, "cancel-dataflow-jobs");
  }

  /** Publishes the backlog and starts the live publisher; closed on failure. */
  DataflowSegment start() throws Exception {
    try {
      Runtime.getRuntime().addShutdownHook(cancelOnExit);
      sampler =
          new DataflowSampler(
              jobs.api(), dir.samplesWriter(), (int) target.pollInterval().getSeconds());
      publishBacklog();
      if (plan.liveMessages() > 0) {
        say(
            "Publishing %,d live messages at %,.0f msg/s while the stages run",
            plan.liveMessages(), plan.rate());
        jobs.launch(launches.livePublisher(segmentNo), segmentNo, "live");
      }
      return this;
    } catch (Exception | Error e) {
      StartedResources.closeAfter(e, this);
      throw e;
    }
  }

  private void publishBacklog() throws Exception {
    if (plan.backlog() == 0) {
      return;
    }
    DataflowJobRecord done =
        jobs.log().all().stream()
            .filter(j -> j.role().equals("backlog") && DataflowJobs.DONE.equals(j.finalState()))
            .findFirst()
            .orElse(null);
    if (done != null) {
      say(
          "The backlog was published by %s in an earlier attempt; the subscriptions keep it",
          done.jobName());
      return;
    }
    say(
        "Publishing the backlog: %,d messages of %,d bytes to %s",
        plan.backlog(), plan.messageSize(), plan.scenario().source().topic());
    DataflowJobRecord job = jobs.launch(launches.backlogPublisher(segmentNo), segmentNo, "backlog");
    String state =
        jobs.waitFor(
            job,
            DataflowJobs.TERMINAL,
            PUBLISH_MAX,
            "publishing the backlog",
            () ->
                String.format(
                    Locale.ROOT,
                    "; %,.0f of %,d messages published",
                    jobs.api()
                        .counters(job.jobId())
                        .getOrDefault(DataflowJobs.MESSAGES_PUBLISHED, 0.0),
                    plan.backlog()));
    jobs.log().replace(job, job.stopped(Instant.now().toString(), state));
    if (!DataflowJobs.DONE.equals(state)) {
      throw new IOException(
          "publishing the backlog: job "
              + job.jobName()
              + " ended "
              + state
              + "; see "
              + jobs.console(job));
    }
  }

  @Override
  public void startJob(String stage, String job) throws Exception {
    jobs.start(launches.consumer(job, segmentNo), job, segmentNo, stage);
  }

  @Override
  public boolean stopJob(String stage, String job, StopMode mode) throws Exception {
    return jobs.stop(job, "stage " + stage, mode);
  }

  /**
   * A streaming job never ends by itself: one that is no longer running (its state read every poll
   * interval) failed, and ends the run. What a running job accounted for is its latest sample's,
   * from its counters.
   */
  @Override
  public StageTarget.JobReading read(String job) throws Exception {
    checkRunning(job);
    long accounted = 0;
    for (ScenarioSample s : sampler.samples()) {
      if (s.job().equals(job)) {
        accounted = Math.max(accounted, s.accountedFor());
      }
    }
    return new StageTarget.JobReading(
        OptionalInt.empty(),
        plan.messages(),
        accounted,
        false,
        dir.root().resolve(RunFiles.DATAFLOW_JOBS));
  }

  private void checkRunning(String job) throws Exception {
    long now = System.nanoTime();
    Long last = lastStateCheck.putIfAbsent(job, now);
    if (last == null || now - last < target.pollInterval().toNanos()) {
      return;
    }
    lastStateCheck.put(job, now);
    DataflowJobRecord record = jobs.running(job);
    String state = jobs.api().state(record.jobId());
    if (!DataflowJobs.RUNNING.equals(state)) {
      jobs.ended(job, state);
      throw new IOException(
          "job "
              + job
              + " ("
              + record.jobName()
              + ") is "
              + state
              + "; see "
              + jobs.console(record));
    }
  }

  /** Appended, dead-lettered and rejected, by the job's counters. */
  private long accountedFor(String job) {
    Map<String, Double> c = sampler.counters(job);
    return (long)
        (c.getOrDefault(DataflowJobs.RECORDS_APPENDED, 0.0)
            + c.getOrDefault(DataflowJobs.DEAD_LETTERED, 0.0)
            + c.getOrDefault(DataflowJobs.REJECTED, 0.0));
  }

  @Override
  public void follow(String stage, List<String> running) {
    sampler.follow(stage, jobs.ids());
  }

  @Override
  public List<ScenarioSample> samples() {
    return sampler.samples();
  }

  @Override
  public void awaitPublished() {
    finished = true;
  }

  /**
   * Dataflow gives counters, not rows: what a job wrote is not checked message by message here, so
   * no job is called verified (docs/dataflow.md says how to check the tables).
   */
  @Override
  public JobCounts count(String stage, String job, boolean exactlyOnce) {
    long accounted = accountedFor(job);
    return new JobCounts(
        stage,
        job,
        exactlyOnce,
        plan.messages(),
        accounted,
        accounted,
        0,
        0,
        accounted,
        null,
        "on Dataflow the rows are counted by the job's counters ("
            + String.format(Locale.ROOT, "%,d", accounted)
            + " appended or dead-lettered), not checked message by message, and what is left in its"
            + " subscription is not counted; docs/dataflow.md shows the queries that check the"
            + " tables");
  }

  @Override
  public void close() throws Exception {
    try {
      jobs.stopAll(finished ? "the scenario's end" : "a failure");
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(cancelOnExit);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running
      }
      if (sampler != null) {
        sampler.close();
      }
    }
  }
}
