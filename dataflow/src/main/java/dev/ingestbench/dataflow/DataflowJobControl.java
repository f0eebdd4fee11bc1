package dev.ingestbench.dataflow;

import static dev.ingestbench.harness.staged.RunLog.say;

import dev.ingestbench.contracts.DataflowJobRecord;
import dev.ingestbench.contracts.StopMode;
import dev.ingestbench.scenario.Durations;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A run's Dataflow jobs: each launched and recorded in {@code dataflow_jobs.jsonl} before anything
 * else can happen to it, waited for until it runs (or ends), stopped as a stage or {@code
 * --stop-with} says, and at the end, on a failure or on Ctrl-C every one still running cancelled.
 */
final class DataflowJobControl {
  private static final Duration START_MAX = Duration.ofMinutes(15);
  private static final Duration CANCEL_MAX = Duration.ofMinutes(10);
  private static final Duration DRAIN_MAX = Duration.ofMinutes(30);
  private static final long PROGRESS_EVERY_SECONDS = 30;

  /** How long the Ctrl-C hook waits for a launch on its way before it cancels what it knows. */
  private static final Duration LAUNCH_WAIT = Duration.ofSeconds(60);

  private final DataflowJobs api;
  private final DataflowJobLog log;
  private final GcpSettings target;

  /** Held from a launch request until its job is in the job log; the Ctrl-C hook waits for it. */
  private final ReentrantLock launching = new ReentrantLock();

  private volatile String inFlight;

  /** Scenario job to the Dataflow job running it now. */
  private final Map<String, DataflowJobRecord> running = new LinkedHashMap<>();

  DataflowJobControl(DataflowJobs api, DataflowJobLog log, GcpSettings target) {
    this.api = api;
    this.log = log;
    this.target = target;
  }

  DataflowJobs api() {
    return api;
  }

  DataflowJobLog log() {
    return log;
  }

  /**
   * Jobs an earlier attempt launched and never stopped (it was killed) are cancelled before
   * anything else.
   */
  void cancelLeftovers() throws IOException {
    for (DataflowJobRecord job : log.unstopped()) {
      String state = api.state(job.jobId());
      if (!DataflowJobs.TERMINAL.contains(state)) {
        say("Cancelling %s (%s), left %s by an earlier attempt", job.jobName(), job.jobId(), state);
        api.stop(job.jobId(), StopMode.CANCEL);
      }
      log.replace(job, job.stopped(Instant.now().toString(), state));
    }
  }

  /**
   * Launches and records the job under {@link #launching}: Ctrl-C while a launch request is on its
   * way must not leave a job that Dataflow started and the job log never heard of, so the shutdown
   * hook waits for the launch to be recorded before it cancels what the log holds.
   */
  DataflowJobRecord launch(DataflowLaunch launch, int segment, String stage) throws IOException {
    launching.lock();
    try {
      inFlight = launch.jobName();
      String id = api.launch(launch);
      DataflowJobRecord job =
          new DataflowJobRecord(
              segment,
              launch.role(),
              stage,
              launch.jobName(),
              id,
              Instant.now().toString(),
              null,
              null);
      log.add(job);
      say("Launched %s: %s (%s)", launch.role(), launch.jobName(), id);
      return job;
    } finally {
      inFlight = null;
      launching.unlock();
    }
  }

  /**
   * Polls the job until its state is one of {@code states}; a terminal state outside them is
   * returned too.
   */
  String waitFor(DataflowJobRecord job, Set<String> states, Duration max, String what)
      throws Exception {
    return waitFor(job, states, max, what, () -> "");
  }

  /** What a progress line adds about a job (its counters), read only when the line is printed. */
  interface Detail {
    String get() throws IOException;
  }

  String waitFor(
      DataflowJobRecord job, Set<String> states, Duration max, String what, Detail detail)
      throws Exception {
    long deadline = System.nanoTime() + max.toNanos();
    long lastProgress = System.nanoTime();
    Instant since = Instant.now();
    long pollMillis = Math.min(10_000, target.pollInterval().toMillis());
    while (true) {
      String state = api.state(job.jobId());
      if (states.contains(state) || DataflowJobs.TERMINAL.contains(state)) {
        return state;
      }
      if (System.nanoTime() > deadline) {
        throw new IOException(
            what
                + ": job "
                + job.jobName()
                + " is still "
                + state
                + " after "
                + Durations.show(max)
                + "; see "
                + console(job));
      }
      if (System.nanoTime() - lastProgress >= PROGRESS_EVERY_SECONDS * 1_000_000_000L) {
        lastProgress = System.nanoTime();
        say(
            "%s: %s is %s after %s%s",
            what,
            job.jobName(),
            state,
            Durations.show(Duration.between(since, Instant.now())),
            detail.get());
      }
      Thread.sleep(pollMillis);
    }
  }

  /** Launches the scenario job's consumer and waits until it runs. */
  void start(DataflowLaunch launch, String job, int segment, String stage) throws Exception {
    DataflowJobRecord record = launch(launch, segment, stage);
    String state = waitFor(record, Set.of(DataflowJobs.RUNNING), START_MAX, "stage " + stage);
    if (!DataflowJobs.RUNNING.equals(state)) {
      log.replace(record, record.stopped(Instant.now().toString(), state));
      throw new IOException(
          "job "
              + job
              + " ("
              + record.jobName()
              + ") ended "
              + state
              + " before it ran; see "
              + console(record));
    }
    running.put(job, record);
  }

  /** The Dataflow job running scenario job {@code job}, or null. */
  DataflowJobRecord running(String job) {
    return running.get(job);
  }

  /** The job is no longer running: it ended in {@code state} by itself. */
  void ended(String job, String state) throws IOException {
    DataflowJobRecord record = running.remove(job);
    log.replace(record, record.stopped(Instant.now().toString(), state));
  }

  /** Stops {@code job} as {@code mode} says, or as {@code --stop-with} does when it is null. */
  boolean stop(String job, String why, StopMode mode) throws Exception {
    DataflowJobRecord record = running.remove(job);
    if (record == null) {
      return false;
    }
    StopMode how = mode == null ? target.stopWith() : mode;
    say("Stopping %s (%s, %s) at %s", job, record.jobName(), how.flag(), why);
    api.stop(record.jobId(), how);
    DataflowJobRecord asked = record.stopped(Instant.now().toString(), null);
    log.replace(record, asked);
    String state =
        waitFor(
            asked,
            DataflowJobs.TERMINAL,
            how == StopMode.DRAIN ? DRAIN_MAX : CANCEL_MAX,
            "stopping " + job);
    log.replace(asked, asked.stopped(asked.stoppedAt(), state));
    return true;
  }

  /** Each running scenario job's Dataflow job id. */
  Map<String, String> ids() {
    Map<String, String> ids = new LinkedHashMap<>();
    running.forEach((job, record) -> ids.put(job, record.jobId()));
    return ids;
  }

  /**
   * At the end or on a failure: stop the scenario's jobs (as configured) and cancel the live
   * publisher.
   */
  void stopAll(String why) throws Exception {
    for (String job : new ArrayList<>(running.keySet())) {
      stop(job, why, null);
    }
    for (DataflowJobRecord job : log.unstopped()) {
      say("Cancelling %s (%s) at %s", job.jobName(), job.role(), why);
      api.stop(job.jobId(), StopMode.CANCEL);
      log.replace(job, job.stopped(Instant.now().toString(), "JOB_STATE_CANCELLING"));
    }
  }

  /** Ctrl-C: cancel whatever runs, without waiting (the JVM is exiting). */
  void cancelEverything() {
    try {
      if (!launching.tryLock(LAUNCH_WAIT.toSeconds(), TimeUnit.SECONDS)) {
        System.err.println(
            "[run] A launch of "
                + inFlight
                + " was still on its way after "
                + Durations.show(LAUNCH_WAIT)
                + "; if it started, cancel it with: gcloud dataflow jobs list --filter=name="
                + inFlight
                + " --project="
                + target.project()
                + " --region="
                + target.region());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (DataflowJobRecord job : log.unstopped()) {
      try {
        api.stop(job.jobId(), StopMode.CANCEL);
        log.replace(job, job.stopped(Instant.now().toString(), "JOB_STATE_CANCELLING"));
        System.err.println("[run] Cancelled " + job.jobName() + " (" + job.jobId() + ")");
      } catch (IOException | RuntimeException e) {
        System.err.println(
            "[run] Could not cancel "
                + job.jobName()
                + " ("
                + job.jobId()
                + "): "
                + e.getMessage()
                + "; cancel it with: gcloud dataflow jobs cancel "
                + job.jobId()
                + " --project="
                + target.project()
                + " --region="
                + target.region());
      }
    }
  }

  /** The job's page in the Cloud console. */
  String console(DataflowJobRecord job) {
    return "https://console.cloud.google.com/dataflow/jobs/"
        + target.region()
        + "/"
        + job.jobId()
        + "?project="
        + target.project();
  }
}
