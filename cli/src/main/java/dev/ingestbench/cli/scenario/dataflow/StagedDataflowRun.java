package dev.ingestbench.cli.scenario.dataflow;

import static dev.ingestbench.cli.scenario.RunLog.say;

import dev.ingestbench.analysis.scenario.OnlineSteady;
import dev.ingestbench.analysis.scenario.ResultRecords;
import dev.ingestbench.cli.scenario.MeasuredStage;
import dev.ingestbench.cli.scenario.RunDirectory;
import dev.ingestbench.cli.scenario.RunLog;
import dev.ingestbench.contracts.DataflowJobRecord;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.scenario.Durations;
import dev.ingestbench.scenario.JobFlags;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.scenario.ScenarioPlan.PlannedStage;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs an ordered scenario on Dataflow: creates what is missing, publishes the backlog with the
 * publisher's Flex Template (and the live messages, if any, while the stages run), then each stage
 * in turn: cancel or drain the jobs it stops, launch the jobs it starts from the consumer's Flex
 * Template and wait until they run, hold or wait for its condition while polling every job's
 * counters, measure, mark it done. Every job still running at the end, on a failure or on Ctrl-C
 * is cancelled; {@code dataflow_jobs.jsonl} lists every job launched.
 *
 * <p>A rerun resumes at the first stage without a marker. The subscriptions keep their backlog, so
 * it is not published again; the jobs that ran before that stage are launched again and given until
 * they are steady (a warm-up, not measured).
 */
public final class StagedDataflowRun {
  private static final Duration START_MAX = Duration.ofMinutes(15);
  private static final Duration CANCEL_MAX = Duration.ofMinutes(10);
  private static final Duration DRAIN_MAX = Duration.ofMinutes(30);
  private static final Duration PUBLISH_MAX = Duration.ofHours(6);
  /** How long a resumed run waits for the jobs it starts again to be steady, unless --warm-up-max says. */
  public static final Duration DEFAULT_WARM_UP_MAX = Duration.ofMinutes(10);
  private static final long PROGRESS_EVERY_SECONDS = 30;

  private final ScenarioPlan plan;
  private final Duration warmUpMax;
  private final RunDirectory dir;
  private final ScenarioRun run;
  private final GcpTarget target;
  private final DataflowLaunches launches;
  /** Held from a launch request until its job is in the job log; the Ctrl-C hook waits for it. */
  private final java.util.concurrent.locks.ReentrantLock launching = new java.util.concurrent.locks.ReentrantLock();
  private volatile String inFlight;
  /** How long the Ctrl-C hook waits for a launch on its way before it cancels what it knows. */
  private static final Duration LAUNCH_WAIT = Duration.ofSeconds(60);
  private final GcpResources resources;
  private final Map<String, Map<String, String>> labels = new LinkedHashMap<>();
  private DataflowJobs api;
  private DataflowJobLog log;
  /** Scenario job to the Dataflow job running it now. */
  private final Map<String, DataflowJobRecord> running = new LinkedHashMap<>();

  public StagedDataflowRun(ScenarioPlan plan, RunDirectory dir, ScenarioRun run, GcpTarget target,
      Duration warmUpMax) {
    this.plan = plan;
    this.warmUpMax = warmUpMax;
    this.dir = dir;
    this.run = run;
    this.target = target;
    this.launches = new DataflowLaunches(plan, target, run.runId());
    this.resources = new GcpResources(plan, target, launches);
    for (String job : plan.jobs().keySet()) {
      Map<String, String> l = new LinkedHashMap<>(JobFlags.labels(plan.jobs().get(job)));
      l.put("message_size", Integer.toString(plan.messageSize()));
      l.put("scale", Double.toString(plan.scale()));
      l.put("machine", "dataflow " + target.region());
      labels.put(job, l);
    }
  }

  private int firstUnfinished() {
    int k = 0;
    while (k < plan.stages().size() && dir.isDone(plan.stages().get(k).marker())) {
      k++;
    }
    return k;
  }

  /** --dry-run: every action, as the gcloud and bq commands that would do the same by hand. */
  public void describe(PrintStream out) {
    int first = firstUnfinished();
    String p = target.project();
    String r = target.region();
    out.println("Would run " + plan.scenario().name() + " on Dataflow in " + p + " (" + r + ") into " + dir.root()
        + "; the same steps by hand:");
    out.println("  # what is missing is created (each skipped when it exists):");
    resources.commands().forEach(c -> out.println("  " + c));
    if (plan.backlog() > 0) {
      out.println(String.format(Locale.ROOT, "  # publish the backlog (%,d messages) and wait until the job is done:", plan.backlog()));
      out.println("  " + launches.backlogPublisher(1).gcloud(p, r));
    }
    if (plan.liveMessages() > 0) {
      out.println(String.format(Locale.ROOT, "  # publish %,d live messages at %,.0f msg/s while the stages run:",
          plan.liveMessages(), plan.rate()));
      out.println("  " + launches.livePublisher(1).gcloud(p, r));
    }
    if (first > 0) {
      out.println("  # skip stages 1-" + first + " (finished); launch " + plan.runningBefore(first)
          + " again and wait until steady (max " + Durations.show(warmUpMax) + ")");
    }
    for (int k = first; k < plan.stages().size(); k++) {
      PlannedStage st = plan.stages().get(k);
      out.println(String.format(Locale.ROOT, "  # stage %d/%d %s:", k + 1, plan.stages().size(), st.name()));
      for (String job : st.stop()) {
        out.println("  gcloud dataflow jobs " + target.stopWith() + " JOB_ID_OF_" + job.toUpperCase(Locale.ROOT)
            + " --project=" + p + " --region=" + r);
      }
      for (String job : st.start()) {
        out.println("  " + launches.consumer(job, 1).gcloud(p, r));
      }
      out.println("  # " + st.condition() + " with " + st.running() + " running (job counters read every "
          + Durations.show(target.pollInterval()) + "); then measure and write status/" + st.marker() + ".json");
    }
    out.println("  # cancel every job still running; read WRITE_API_TIMELINE (BigQuery) and vCPUs and connections"
        + " (Cloud Monitoring); write report.md and results.jsonl");
  }

  /** Runs the unfinished stages. */
  public int run() throws Exception {
    int first = firstUnfinished();
    api = new DataflowJobs(target.dataflow(), target.project(), target.region());
    log = new DataflowJobLog(dir.root());
    if (first == plan.stages().size()) {
      say("Every stage is finished already (status/ in %s); the report is rewritten. --restart runs it again.", dir.root());
      collect();
      return ExitCodes.OK;
    }
    int segment = dir.nextSegment();
    cancelLeftovers();
    for (String created : resources.ensure()) {
      say("Created %s", created);
    }
    Thread cancelOnExit = new Thread(this::cancelEverything, "cancel-dataflow-jobs");
    Runtime.getRuntime().addShutdownHook(cancelOnExit);
    boolean finished = false;
    try (DataflowSampler sampler = new DataflowSampler(api, dir.samplesWriter(), (int) target.pollInterval().getSeconds())) {
      publishBacklog(segment);
      if (plan.liveMessages() > 0) {
        say("Publishing %,d live messages at %,.0f msg/s while the stages run", plan.liveMessages(), plan.rate());
        launch(launches.livePublisher(segment), segment, "live");
      }
      if (first > 0) {
        say("Resuming at stage %d/%d %s: stages 1-%d are finished and skipped", first + 1, plan.stages().size(),
            plan.stages().get(first).name(), first);
        warmUp(plan.runningBefore(first), segment, sampler);
      }
      for (int k = first; k < plan.stages().size(); k++) {
        runStage(plan.stages().get(k), segment, sampler);
      }
      sampler.follow("", Map.of());
      finished = true;
    } finally {
      try {
        stopAll(finished ? "the scenario's end" : "a failure");
      } finally {
        Runtime.getRuntime().removeShutdownHook(cancelOnExit);
      }
    }
    collect();
    return ExitCodes.OK;
  }

  /** Jobs an earlier attempt launched and never stopped (it was killed) are cancelled before anything else. */
  private void cancelLeftovers() throws IOException {
    for (DataflowJobRecord job : log.unstopped()) {
      String state = api.state(job.jobId());
      if (!DataflowJobs.TERMINAL.contains(state)) {
        say("Cancelling %s (%s), left %s by an earlier attempt", job.jobName(), job.jobId(), state);
        api.stop(job.jobId(), GcpTarget.StopMode.cancel);
      }
      log.replace(job, job.stopped(Instant.now().toString(), state));
    }
  }

  private void publishBacklog(int segment) throws Exception {
    if (plan.backlog() == 0) {
      return;
    }
    DataflowJobRecord done = log.all().stream()
        .filter(j -> j.role().equals("backlog") && DataflowJobs.DONE.equals(j.finalState())).findFirst().orElse(null);
    if (done != null) {
      say("The backlog was published by %s in an earlier attempt; the subscriptions keep it", done.jobName());
      return;
    }
    say("Publishing the backlog: %,d messages of %,d bytes to %s", plan.backlog(), plan.messageSize(),
        plan.scenario().source().topic());
    DataflowJobRecord job = launch(launches.backlogPublisher(segment), segment, "backlog");
    String state = waitFor(job, DataflowJobs.TERMINAL, PUBLISH_MAX, "publishing the backlog", () -> String.format(
        Locale.ROOT, "; %,.0f of %,d messages published",
        api.counters(job.jobId()).getOrDefault(DataflowJobs.MESSAGES_PUBLISHED, 0.0), plan.backlog()));
    log.replace(job, job.stopped(Instant.now().toString(), state));
    if (!DataflowJobs.DONE.equals(state)) {
      throw new IOException("publishing the backlog: job " + job.jobName() + " ended " + state + "; see " + console(job));
    }
  }

  /**
   * Launches and records the job under {@link #launching}: Ctrl-C while a launch request is on its way
   * must not leave a job that Dataflow started and the job log never heard of, so the shutdown hook
   * waits for the launch to be recorded before it cancels what the log holds.
   */
  private DataflowJobRecord launch(DataflowLaunch launch, int segment, String stage) throws IOException {
    launching.lock();
    try {
      inFlight = launch.jobName();
      String id = api.launch(launch);
      DataflowJobRecord job = new DataflowJobRecord(segment, launch.role(), stage, launch.jobName(), id,
          Instant.now().toString(), null, null);
      log.add(job);
      say("Launched %s: %s (%s)", launch.role(), launch.jobName(), id);
      return job;
    } finally {
      inFlight = null;
      launching.unlock();
    }
  }

  /** Polls the job until its state is one of {@code states}; a terminal state outside them is returned too. */
  private String waitFor(DataflowJobRecord job, java.util.Set<String> states, Duration max, String what) throws Exception {
    return waitFor(job, states, max, what, () -> "");
  }

  /** What a progress line adds about a job (its counters), read only when the line is printed. */
  private interface Detail {
    String get() throws IOException;
  }

  private String waitFor(DataflowJobRecord job, java.util.Set<String> states, Duration max, String what, Detail detail)
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
        throw new IOException(what + ": job " + job.jobName() + " is still " + state + " after " + Durations.show(max)
            + "; see " + console(job));
      }
      if (System.nanoTime() - lastProgress >= PROGRESS_EVERY_SECONDS * 1_000_000_000L) {
        lastProgress = System.nanoTime();
        say("%s: %s is %s after %s%s", what, job.jobName(), state, Durations.show(Duration.between(since, Instant.now())),
            detail.get());
      }
      Thread.sleep(pollMillis);
    }
  }

  private void startJob(String job, int segment, String stage) throws Exception {
    DataflowJobRecord record = launch(launches.consumer(job, segment), segment, stage);
    String state = waitFor(record, java.util.Set.of(DataflowJobs.RUNNING), START_MAX, "stage " + stage);
    if (!DataflowJobs.RUNNING.equals(state)) {
      log.replace(record, record.stopped(Instant.now().toString(), state));
      throw new IOException("stage " + stage + ": job " + job + " (" + record.jobName() + ") ended " + state
          + " before it ran; see " + console(record));
    }
    running.put(job, record);
  }

  private void stopJob(String job, String why) throws Exception {
    DataflowJobRecord record = running.remove(job);
    if (record == null) {
      return;
    }
    say("Stopping %s (%s, %s) at %s", job, record.jobName(), target.stopWith(), why);
    api.stop(record.jobId(), target.stopWith());
    DataflowJobRecord asked = record.stopped(Instant.now().toString(), null);
    log.replace(record, asked);
    String state = waitFor(asked, DataflowJobs.TERMINAL,
        target.stopWith() == GcpTarget.StopMode.drain ? DRAIN_MAX : CANCEL_MAX, "stopping " + job);
    log.replace(asked, asked.stopped(asked.stoppedAt(), state));
  }

  private void warmUp(List<String> warm, int segment, DataflowSampler sampler) throws Exception {
    say("Launching %s again, which ran before this stage, and waiting until steady (max %s; not measured)", warm,
        Durations.show(warmUpMax));
    for (String job : warm) {
      startJob(job, segment, "resume-warm-up");
    }
    sampler.follow("resume-warm-up", ids());
    long since = Instant.now().getEpochSecond();
    long deadline = System.nanoTime() + warmUpMax.toNanos();
    while (System.nanoTime() < deadline) {
      Thread.sleep(1_000);
      long now = Instant.now().getEpochSecond();
      List<ScenarioSample> samples = sampler.samples();
      if (warm.stream().allMatch(j -> OnlineSteady.reached(samples, j, since, now))) {
        return;
      }
    }
    say("The relaunched jobs were not steady after %s; going on", Durations.show(warmUpMax));
  }

  private Map<String, String> ids() {
    Map<String, String> ids = new LinkedHashMap<>();
    running.forEach((job, record) -> ids.put(job, record.jobId()));
    return ids;
  }

  private void runStage(PlannedStage st, int segment, DataflowSampler sampler) throws Exception {
    int n = plan.stages().size();
    for (String job : st.stop()) {
      stopJob(job, "stage " + st.name());
    }
    for (String job : st.start()) {
      startJob(job, segment, st.name());
    }
    Instant started = Instant.now();
    sampler.follow(st.name(), ids());
    say("Stage %d/%d %s: %s%s%s running; %s", st.index() + 1, n, st.name(),
        st.start().isEmpty() ? "" : "started " + st.start() + ", ",
        st.stop().isEmpty() ? "" : "stopped " + st.stop() + ", ", st.running(), st.condition());
    long startSecond = started.getEpochSecond();
    boolean met;
    long lastProgress = System.nanoTime();
    long lastStateCheck = System.nanoTime();
    while (true) {
      Thread.sleep(1_000);
      long now = Instant.now().getEpochSecond();
      Duration elapsed = Duration.between(started, Instant.now());
      if (System.nanoTime() - lastStateCheck >= target.pollInterval().toNanos()) {
        lastStateCheck = System.nanoTime();
        for (String job : st.running()) {
          DataflowJobRecord record = running.get(job);
          String state = api.state(record.jobId());
          if (!DataflowJobs.RUNNING.equals(state)) {
            running.remove(job);
            log.replace(record, record.stopped(Instant.now().toString(), state));
            throw new IOException("stage " + st.name() + ": job " + job + " (" + record.jobName() + ") is " + state
                + "; see " + console(record));
          }
        }
      }
      List<ScenarioSample> samples = sampler.samples();
      if (st.hold() != null) {
        met = elapsed.compareTo(st.hold()) >= 0;
      } else if (st.until().equals("drained")) {
        met = st.running().stream().allMatch(j -> accountedFor(sampler, j) >= plan.messages());
      } else {
        met = st.running().stream().allMatch(j -> OnlineSteady.reached(samples, j, startSecond, now));
      }
      if (met) {
        break;
      }
      if (st.max() != null && elapsed.compareTo(st.max()) >= 0) {
        say("Stage %s: not %s after max %s; going on", st.name(), st.until(), Durations.show(st.max()));
        break;
      }
      if (System.nanoTime() - lastProgress >= Math.max(PROGRESS_EVERY_SECONDS, target.pollInterval().getSeconds()) * 1_000_000_000L) {
        lastProgress = System.nanoTime();
        progress(st, elapsed, samples, sampler);
      }
    }
    finishStage(st, segment, started, Instant.now(), met, sampler);
  }

  private static long accountedFor(DataflowSampler sampler, String job) {
    Map<String, Double> c = sampler.counters(job);
    return (long) (c.getOrDefault(DataflowJobs.RECORDS_APPENDED, 0.0) + c.getOrDefault(DataflowJobs.DEAD_LETTERED, 0.0)
        + c.getOrDefault(DataflowJobs.REJECTED, 0.0));
  }

  private void progress(PlannedStage st, Duration elapsed, List<ScenarioSample> samples, DataflowSampler sampler) {
    List<String> rates = new ArrayList<>();
    for (String job : st.running()) {
      ScenarioSample latest = null;
      for (ScenarioSample s : samples) {
        if (s.job().equals(job) && s.stage().equals(st.name())) {
          latest = s;
        }
      }
      rates.add(latest == null ? job + " starting (no rows yet)"
          : String.format(Locale.ROOT, "%s %,.0f rows/s", job, latest.rows() / (double) latest.seconds()));
    }
    String problem = sampler.problem();
    say("%s%s", RunLog.stageProgress(plan, st, elapsed, rates),
        problem == null ? "" : " (last poll of the counters failed: " + problem + ")");
  }

  private void finishStage(PlannedStage st, int segment, Instant started, Instant ended, boolean met,
      DataflowSampler sampler) throws IOException {
    MeasuredStage measured = MeasuredStage.of(sampler.samples(), st, started, ended);
    ResultRecords records = measured.records(run, 0, labels,
        Map.of("scale", Double.toString(plan.scale()), "machine", "dataflow " + target.region()));
    dir.finish(measured.status(met, segment),
        // Dataflow counts no connections per job: Monitoring's project-wide peak is collected after the run.
        records.records().stream().filter(r -> !r.metric().equals("peak_connections")).toList());
    say("%s", measured.summary());
  }

  /** At the end or on a failure: stop the scenario's jobs (as configured) and cancel the live publisher. */
  private void stopAll(String why) throws Exception {
    for (String job : new ArrayList<>(running.keySet())) {
      stopJob(job, why);
    }
    for (DataflowJobRecord job : log.unstopped()) {
      say("Cancelling %s (%s) at %s", job.jobName(), job.role(), why);
      api.stop(job.jobId(), GcpTarget.StopMode.cancel);
      log.replace(job, job.stopped(Instant.now().toString(), "JOB_STATE_CANCELLING"));
    }
  }

  /** Ctrl-C: cancel whatever runs, without waiting (the JVM is exiting). */
  private void cancelEverything() {
    try {
      if (!launching.tryLock(LAUNCH_WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)) {
        System.err.println("[run] A launch of " + inFlight + " was still on its way after " + Durations.show(LAUNCH_WAIT)
            + "; if it started, cancel it with: gcloud dataflow jobs list --filter=name=" + inFlight + " --project="
            + target.project() + " --region=" + target.region());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (DataflowJobRecord job : log.unstopped()) {
      try {
        api.stop(job.jobId(), GcpTarget.StopMode.cancel);
        log.replace(job, job.stopped(Instant.now().toString(), "JOB_STATE_CANCELLING"));
        System.err.println("[run] Cancelled " + job.jobName() + " (" + job.jobId() + ")");
      } catch (IOException | RuntimeException e) {
        System.err.println("[run] Could not cancel " + job.jobName() + " (" + job.jobId() + "): " + e.getMessage()
            + "; cancel it with: gcloud dataflow jobs cancel " + job.jobId() + " --project=" + target.project()
            + " --region=" + target.region());
      }
    }
  }

  private String console(DataflowJobRecord job) {
    return "https://console.cloud.google.com/dataflow/jobs/" + target.region() + "/" + job.jobId() + "?project="
        + target.project();
  }

  /** Google Cloud's account of the run, with the scenario's shape for the timeline's diagnosis. */
  private void collect() throws IOException {
    List<String> tables = dataTables();
    int workers = plan.jobs().values().stream().mapToInt(j -> j.workers() == null ? 0 : j.workers()).max().orElse(0);
    boolean pooled = plan.jobs().values().stream().anyMatch(j -> Boolean.TRUE.equals(j.connectionPool()));
    new GcpCollect(target, dir, run, new dev.ingestbench.analysis.diagnosis.Diagnoser.Topology(
        tables.size(), workers, plan.jobs().size(), pooled, 0)).collect(tables, log.all());
  }

  /** The run's data tables, for reading their timeline afterwards. */
  public List<String> dataTables() {
    return resources.tables().keySet().stream().filter(t -> !t.endsWith("_dlq")).toList();
  }
}
