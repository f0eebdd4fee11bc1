package dev.ingestbench.dataflow;

import static dev.ingestbench.harness.staged.RunLog.say;

import dev.ingestbench.analysis.diagnosis.Diagnoser;
import dev.ingestbench.contracts.DataflowJobRecord;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.contracts.StopMode;
import dev.ingestbench.harness.scenario.RemoteTarget;
import dev.ingestbench.harness.spec.JobLabels;
import dev.ingestbench.harness.staged.RunDirectory;
import dev.ingestbench.harness.staged.StageTarget;
import dev.ingestbench.harness.staged.StagedDriver;
import dev.ingestbench.harness.staged.Ticker;
import dev.ingestbench.scenario.Durations;
import dev.ingestbench.scenario.JobConfig;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.scenario.ScenarioPlan.PlannedStage;
import dev.ingestbench.verification.JobCounts;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The Dataflow target of a staged scenario: creates what is missing, publishes the backlog with the
 * publisher's Flex Template (and the live messages, if any, while the stages run), launches the
 * jobs a stage starts from the consumer's Flex Template and waits until they run, cancels or drains
 * the jobs it stops, and polls every job's counters. {@link StagedDriver} sequences, measures and
 * judges the stages. Every job still running at the end, on a failure or on Ctrl-C is cancelled;
 * {@code dataflow_jobs.jsonl} lists every job launched.
 *
 * <p>A rerun resumes at the first stage without a marker. The subscriptions keep their backlog, so
 * it is not published again; the jobs that ran before that stage are launched again and given until
 * they are steady (a warm-up, not measured).
 */
public final class DataflowTarget implements StageTarget, RemoteTarget.Run {
  private static final Duration START_MAX = Duration.ofMinutes(15);
  private static final Duration CANCEL_MAX = Duration.ofMinutes(10);
  private static final Duration DRAIN_MAX = Duration.ofMinutes(30);
  private static final Duration PUBLISH_MAX = Duration.ofHours(6);

  /**
   * How long a resumed run waits for the jobs it starts again to be steady, unless --warm-up-max
   * says.
   */
  public static final Duration DEFAULT_WARM_UP_MAX = Duration.ofMinutes(10);

  private static final long PROGRESS_EVERY_SECONDS = 30;

  private final ScenarioPlan plan;
  private final Duration warmUpMax;
  private final RunDirectory dir;
  private final ScenarioRun run;
  private final GcpSettings target;
  private final DataflowLaunches launches;

  /** Held from a launch request until its job is in the job log; the Ctrl-C hook waits for it. */
  private final ReentrantLock launching = new ReentrantLock();

  private volatile String inFlight;

  /** How long the Ctrl-C hook waits for a launch on its way before it cancels what it knows. */
  private static final Duration LAUNCH_WAIT = Duration.ofSeconds(60);

  private final GcpResources resources;
  private final Map<String, Map<String, String>> labels = new LinkedHashMap<>();
  private DataflowJobs api;
  private DataflowJobLog log;

  /** Scenario job to the Dataflow job running it now. */
  private final Map<String, DataflowJobRecord> running = new LinkedHashMap<>();

  public DataflowTarget(
      ScenarioPlan plan,
      RunDirectory dir,
      ScenarioRun run,
      GcpSettings target,
      Duration warmUpMax) {
    this.plan = plan;
    this.warmUpMax = warmUpMax;
    this.dir = dir;
    this.run = run;
    this.target = target;
    this.launches = new DataflowLaunches(plan, target, run.runId());
    this.resources = new GcpResources(plan, target, launches);
    for (String job : plan.jobs().keySet()) {
      JobConfig config = plan.jobs().get(job);
      Map<String, String> l =
          new LinkedHashMap<>(
              JobLabels.of(
                  launches.consumerConfig(job),
                  plan.messageSize(),
                  config.workers(),
                  config.machineType()));
      l.put("scale", Double.toString(plan.scale()));
      l.put("machine", "dataflow " + target.region());
      labels.put(job, l);
    }
  }

  @Override
  public Map<String, Map<String, String>> resultLabels() {
    return labels;
  }

  /** --dry-run: every action, as the gcloud and bq commands that would do the same by hand. */
  @Override
  public void describe(PrintStream out) {
    int first = driver().firstUnfinished();
    String p = target.project();
    String r = target.region();
    out.println(
        "Would run "
            + plan.scenario().name()
            + " on Dataflow in "
            + p
            + " ("
            + r
            + ") into "
            + dir.root()
            + "; the same steps by hand:");
    out.println("  # what is missing is created (each skipped when it exists):");
    resources.commands().forEach(c -> out.println("  " + c));
    if (plan.backlog() > 0) {
      out.println(
          String.format(
              Locale.ROOT,
              "  # publish the backlog (%,d messages) and wait until the job is done:",
              plan.backlog()));
      out.println("  " + launches.backlogPublisher(1).gcloud(p, r));
    }
    if (plan.liveMessages() > 0) {
      out.println(
          String.format(
              Locale.ROOT,
              "  # publish %,d live messages at %,.0f msg/s while the stages run:",
              plan.liveMessages(),
              plan.rate()));
      out.println("  " + launches.livePublisher(1).gcloud(p, r));
    }
    if (first > 0) {
      out.println(
          "  # skip stages 1-"
              + first
              + " (finished); launch "
              + plan.runningBefore(first)
              + " again and wait until steady (max "
              + Durations.show(warmUpMax)
              + ")");
    }
    for (int k = first; k < plan.stages().size(); k++) {
      PlannedStage st = plan.stages().get(k);
      out.println(
          String.format(
              Locale.ROOT, "  # stage %d/%d %s:", k + 1, plan.stages().size(), st.name()));
      for (String job : st.stop()) {
        out.println(
            "  gcloud dataflow jobs "
                + (st.stopWith() == null ? target.stopWith() : st.stopWith()).flag()
                + " JOB_ID_OF_"
                + job.toUpperCase(Locale.ROOT)
                + " --project="
                + p
                + " --region="
                + r);
      }
      for (String job : st.start()) {
        out.println("  " + launches.consumer(job, 1).gcloud(p, r));
      }
      out.println(
          "  # "
              + st.condition()
              + " with "
              + st.running()
              + " running (job counters read every "
              + Durations.show(target.pollInterval())
              + "); then measure and write status/"
              + st.marker()
              + ".json");
    }
    out.println(
        "  # cancel every job still running; read WRITE_API_TIMELINE (BigQuery) and vCPUs and connections"
            + " (Cloud Monitoring); write report.md and results.jsonl");
  }

  /**
   * Runs the unfinished stages with {@link StagedDriver}, then reads Google Cloud's account of the
   * run; returns the driver's exit code.
   */
  @Override
  public int run() throws Exception {
    api = new DataflowJobs(target.dataflow(), target.project(), target.region());
    log = new DataflowJobLog(dir.root());
    int exit = driver().run();
    collect();
    return exit;
  }

  private StagedDriver driver() {
    return new StagedDriver(plan, dir, run, this, warmUpMax, Ticker.system(), labels);
  }

  /**
   * Monitoring's concurrent connections are per project: collected after the run, not per job and
   * stage.
   */
  @Override
  public Measures measures() {
    return Measures.ALL_BUT_CONNECTIONS;
  }

  @Override
  public Segment open(int segmentNo, Path segmentDir) throws Exception {
    cancelLeftovers();
    for (String created : resources.ensure()) {
      say("Created %s", created);
    }
    DataflowSegment segment = new DataflowSegment(segmentNo);
    try {
      segment.start();
      return segment;
    } catch (Exception | Error e) {
      segment.close();
      throw e;
    }
  }

  /**
   * One start of the run on Dataflow: the publishers' jobs, the consumers' jobs, their counters.
   */
  private final class DataflowSegment implements Segment {
    private final int segmentNo;
    private final Thread cancelOnExit =
        new Thread(DataflowTarget.this::cancelEverything, "cancel-dataflow-jobs");
    private DataflowSampler sampler;
    private boolean finished;

    /**
     * When each job's state was last read (System.nanoTime): every job is read once a poll
     * interval.
     */
    private final Map<String, Long> lastStateCheck = new HashMap<>();

    DataflowSegment(int segmentNo) {
      this.segmentNo = segmentNo;
    }

    void start() throws Exception {
      Runtime.getRuntime().addShutdownHook(cancelOnExit);
      sampler =
          new DataflowSampler(api, dir.samplesWriter(), (int) target.pollInterval().getSeconds());
      publishBacklog(segmentNo);
      if (plan.liveMessages() > 0) {
        say(
            "Publishing %,d live messages at %,.0f msg/s while the stages run",
            plan.liveMessages(), plan.rate());
        launch(launches.livePublisher(segmentNo), segmentNo, "live");
      }
    }

    @Override
    public void startJob(String stage, String job) throws Exception {
      DataflowTarget.this.startJob(job, segmentNo, stage);
    }

    @Override
    public boolean stopJob(String stage, String job, StopMode mode) throws Exception {
      return DataflowTarget.this.stopJob(job, "stage " + stage, mode);
    }

    /**
     * A streaming job never ends by itself: one that is no longer running (its state read every
     * poll interval) failed, and ends the run. What a running job accounted for is its latest
     * sample's, from its counters.
     */
    @Override
    public JobReading read(String job) throws Exception {
      checkRunning(job);
      long accounted = 0;
      for (ScenarioSample s : sampler.samples()) {
        if (s.job().equals(job)) {
          accounted = Math.max(accounted, s.accountedFor());
        }
      }
      return new JobReading(
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
      DataflowJobRecord record = running.get(job);
      String state = api.state(record.jobId());
      if (!DataflowJobs.RUNNING.equals(state)) {
        running.remove(job);
        log.replace(record, record.stopped(Instant.now().toString(), state));
        throw new IOException(
            "job " + job + " (" + record.jobName() + ") is " + state + "; see " + console(record));
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
    public void follow(String stage, List<String> jobs) {
      sampler.follow(stage, ids());
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
     * Dataflow gives counters, not rows: what a job wrote is not checked message by message here,
     * so no job is called verified (docs/dataflow.md says how to check the tables).
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
              + " appended or dead-lettered), not checked message by message, and what is left in its subscription"
              + " is not counted; docs/dataflow.md shows the queries that check the tables");
    }

    @Override
    public void close() throws Exception {
      try {
        stopAll(finished ? "the scenario's end" : "a failure");
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

  /**
   * Jobs an earlier attempt launched and never stopped (it was killed) are cancelled before
   * anything else.
   */
  private void cancelLeftovers() throws IOException {
    for (DataflowJobRecord job : log.unstopped()) {
      String state = api.state(job.jobId());
      if (!DataflowJobs.TERMINAL.contains(state)) {
        say("Cancelling %s (%s), left %s by an earlier attempt", job.jobName(), job.jobId(), state);
        api.stop(job.jobId(), StopMode.CANCEL);
      }
      log.replace(job, job.stopped(Instant.now().toString(), state));
    }
  }

  private void publishBacklog(int segment) throws Exception {
    if (plan.backlog() == 0) {
      return;
    }
    DataflowJobRecord done =
        log.all().stream()
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
    DataflowJobRecord job = launch(launches.backlogPublisher(segment), segment, "backlog");
    String state =
        waitFor(
            job,
            DataflowJobs.TERMINAL,
            PUBLISH_MAX,
            "publishing the backlog",
            () ->
                String.format(
                    Locale.ROOT,
                    "; %,.0f of %,d messages published",
                    api.counters(job.jobId()).getOrDefault(DataflowJobs.MESSAGES_PUBLISHED, 0.0),
                    plan.backlog()));
    log.replace(job, job.stopped(Instant.now().toString(), state));
    if (!DataflowJobs.DONE.equals(state)) {
      throw new IOException(
          "publishing the backlog: job "
              + job.jobName()
              + " ended "
              + state
              + "; see "
              + console(job));
    }
  }

  /**
   * Launches and records the job under {@link #launching}: Ctrl-C while a launch request is on its
   * way must not leave a job that Dataflow started and the job log never heard of, so the shutdown
   * hook waits for the launch to be recorded before it cancels what the log holds.
   */
  private DataflowJobRecord launch(DataflowLaunch launch, int segment, String stage)
      throws IOException {
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
  private String waitFor(DataflowJobRecord job, Set<String> states, Duration max, String what)
      throws Exception {
    return waitFor(job, states, max, what, () -> "");
  }

  /** What a progress line adds about a job (its counters), read only when the line is printed. */
  private interface Detail {
    String get() throws IOException;
  }

  private String waitFor(
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

  private void startJob(String job, int segment, String stage) throws Exception {
    DataflowJobRecord record = launch(launches.consumer(job, segment), segment, stage);
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

  /** Stops {@code job} as {@code mode} says, or as {@code --stop-with} does when it is null. */
  private boolean stopJob(String job, String why, StopMode mode) throws Exception {
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

  private Map<String, String> ids() {
    Map<String, String> ids = new LinkedHashMap<>();
    running.forEach((job, record) -> ids.put(job, record.jobId()));
    return ids;
  }

  /**
   * At the end or on a failure: stop the scenario's jobs (as configured) and cancel the live
   * publisher.
   */
  private void stopAll(String why) throws Exception {
    for (String job : new ArrayList<>(running.keySet())) {
      stopJob(job, why, null);
    }
    for (DataflowJobRecord job : log.unstopped()) {
      say("Cancelling %s (%s) at %s", job.jobName(), job.role(), why);
      api.stop(job.jobId(), StopMode.CANCEL);
      log.replace(job, job.stopped(Instant.now().toString(), "JOB_STATE_CANCELLING"));
    }
  }

  /** Ctrl-C: cancel whatever runs, without waiting (the JVM is exiting). */
  private void cancelEverything() {
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

  private String console(DataflowJobRecord job) {
    return "https://console.cloud.google.com/dataflow/jobs/"
        + target.region()
        + "/"
        + job.jobId()
        + "?project="
        + target.project();
  }

  /** Google Cloud's account of the run, with the scenario's shape for the timeline's diagnosis. */
  private void collect() throws IOException {
    List<String> tables = dataTables();
    int workers =
        plan.jobs().values().stream()
            .mapToInt(j -> j.workers() == null ? 0 : j.workers())
            .max()
            .orElse(0);
    boolean pooled =
        plan.jobs().values().stream().anyMatch(j -> Boolean.TRUE.equals(j.connectionPool()));
    new GcpCollect(
            target,
            dir,
            run,
            new Diagnoser.Topology(tables.size(), workers, plan.jobs().size(), pooled, 0))
        .collect(tables, log.all());
  }

  /** The run's data tables, for reading their timeline afterwards. */
  public List<String> dataTables() {
    return resources.tables().keySet().stream().filter(t -> !t.endsWith("_dlq")).toList();
  }
}
