package dev.ingestbench.harness.staged;

import dev.ingestbench.contracts.ProcessCpuColumns;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.contracts.StopMode;
import dev.ingestbench.harness.flink.PipelineRunner;
import dev.ingestbench.harness.process.ChildJvm;
import dev.ingestbench.harness.process.ProcessLauncher;
import dev.ingestbench.harness.process.StartedResources;
import dev.ingestbench.harness.source.SourceFeed;
import dev.ingestbench.harness.spec.ChildFlags;
import dev.ingestbench.harness.stack.LocalStack;
import dev.ingestbench.scenario.PlannedStage;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.scenario.Until;
import dev.ingestbench.verification.JobCounts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * One segment of a local run, a scenario's or a round's: its servers (the local stack), its
 * backlog, feed or what this JVM publishes, its jobs' consumers and the faults its stages inject;
 * closing it stops every one, newest first. What a scenario's segments and a round's do differently
 * is their {@link SegmentShape}.
 */
public final class LocalSegment implements StageTarget.Segment {
  private final ScenarioPlan plan;
  private final String heap;
  private final SegmentShape shape;
  private final LocalJobs jobs;

  /** Where the jobs' pipelines run (on a Flink cluster no JVM is one job's). */
  private final PipelineRunner runner;

  /** Starts the backlog publisher (a test's scripted process). */
  private final ProcessLauncher launcher;

  private final Path segment;
  private final StartedResources started = new StartedResources();

  /** The servers, their CPU records and their watch (a death ends the stage). */
  private LocalStack stack;

  private SinkAccounts accounts;

  /** What this JVM publishes while the stages run, or null. */
  private SegmentPublishing publishing;

  private Long published;

  /** Feeds the jobs as fast as they read, on a scaled-down backlog-only run (else null). */
  private SourceFeed feed;

  /** The current stage waits until its jobs drain: nothing more is fed. */
  private boolean draining;

  /** The current stage's consumer kills and TaskManager kill. */
  private SegmentFaults faults;

  /** Jobs whose consumer ended by itself short of its count: their figures may not decide. */
  private final ShortStops shortStops = new ShortStops();

  /** The jobs started in this segment, in the order of their first start. */
  private final Set<String> startedJobs = new LinkedHashSet<>();

  /**
   * @param runner where the jobs' pipelines run
   * @param segment the segment's directory: its servers' files (where each consumer writes is its
   *     {@link ConsumerPlan}'s)
   */
  public LocalSegment(
      ScenarioPlan plan,
      String heap,
      SegmentShape shape,
      LocalJobs jobs,
      PipelineRunner runner,
      ProcessLauncher launcher,
      Path segment) {
    this.plan = plan;
    this.heap = heap;
    this.shape = shape;
    this.jobs = jobs;
    this.runner = runner;
    this.launcher = launcher;
    this.segment = segment;
  }

  /** The source's HOST:PORT, where a load-test stage publishes. */
  String sourceHost() {
    return stack.host();
  }

  /** Why the segment could not go on: a server died. */
  public Optional<String> death() {
    return stack == null ? Optional.empty() : stack.death();
  }

  /** Consumers killed and restored so far, every stage's. */
  public int kills() {
    return faults == null ? 0 : faults.kills();
  }

  private void say(String format, Object... args) {
    RunLog.say(shape.voice(), format, args);
  }

  /** Starts the servers, makes the source ready, publishes the backlog; closed on failure. */
  public LocalSegment start() throws Exception {
    try {
      stack = new LocalStack(shape.stack(segment), started, RunLog.lines(shape.voice()));
      stack.start();
      keep(this::stopConsumers);
      keep(stack::stopWatching); // first: the jobs' stopping is not a death
      accounts = keep(shape.accounts(stack, segment, jobs));
      faults = shape.faults(new FaultedJobs());
      if (shape.feedsUpTo().isPresent()) {
        feed = shape.feed(stack, segment);
        keep(this::closeFeed);
      } else {
        shape.prepare(stack.host());
        publishBacklog();
      }
      publishing = shape.publishing(stack, segment, jobs);
      if (publishing != null) {
        keep(publishing);
      }
      return this;
    } catch (Exception | Error e) {
      StartedResources.closeAfter(e, this);
      throw e;
    }
  }

  private void publishBacklog() throws Exception {
    if (shape.backlog() == 0) {
      return;
    }
    say("Publishing the backlog: %,d messages of %,d bytes", shape.backlog(), plan.messageSize());
    try (ChildJvm publisher =
        ChildJvm.start(
            launcher,
            ProcessCpuColumns.BACKLOG_PUBLISHER,
            heap,
            ChildFlags.PUBLISHER_MAIN,
            shape.backlogPublisherArgs(stack.host(), segment),
            segment.resolve("publisher.log"))) {
      stack.watch().stopOnDeath(publisher); // a dead server ends it at once
      stack.cpu().watch(ProcessCpuColumns.BACKLOG_PUBLISHER, publisher.pid());
      publisher.requireSuccess(3_600);
    }
  }

  /** Stops every consumer still running, then what only they needed. */
  private void stopConsumers() throws IOException {
    jobs.close();
    shape.consumersStopped();
  }

  /**
   * A feed that failed while the jobs wait for their count (a round's backlog in tranches) ends the
   * segment at once: they would wait until their --timeout for messages that never come.
   */
  static void checkFeed(SourceFeed feed) throws IOException {
    if (feed != null && feed.bounded() && feed.failure() != null) {
      throw new IOException(
          "feeding the jobs failed: " + feed.failure().getMessage(), feed.failure());
    }
  }

  /** Stops the feed and writes what it fed each job: feed.json. */
  private void closeFeed() throws Exception {
    feed.close();
    RunJson.write(segment.resolve(RunFiles.FEED), feed.result());
    shape.fed(feed);
  }

  @Override
  public void stageStarting(PlannedStage st) {
    draining = st.until() == Until.DRAINED;
    faults.stageStarting(st);
    // A bounded feed (a backlog in tranches) ends by itself at its count: the jobs drain it then.
    if (feed != null && draining && !feed.bounded()) {
      say("Stage %s waits until the jobs drain: feeding stops", st.name());
      feed.stopAll();
    }
    if (publishing != null) {
      publishing.stageStarting(st);
    }
  }

  /**
   * A server's death or the accounts' silence ends the run; else the stage's faults, then what this
   * JVM publishes.
   */
  @Override
  public void tick() throws Exception {
    if (stack.death().isPresent()) {
      // The watch has already stopped every process that depended on the server.
      throw new IOException(stack.death().get());
    }
    accounts.check();
    checkFeed(feed);
    faults.tick();
    if (publishing != null) {
      publishing.tick(List.copyOf(startedJobs));
    }
  }

  /** This segment's jobs as its faults see them. */
  private final class FaultedJobs implements SegmentFaults.Jobs {
    @Override
    public ChildJvm jvm(String job) {
      return jobs.jvm(job);
    }

    @Override
    public long accountedFor(String job) {
      return accounts.progress(job);
    }

    @Override
    public Path checkpoints(String job) {
      return jobs.checkpoints(job, segment);
    }

    @Override
    public ChildJvm restart(String job, Path checkpoint) throws IOException {
      return jobs.restart(
          job,
          checkpoint,
          stack.host(),
          stack.bigQuery(),
          segment,
          stack.cpu(),
          stack.watch(),
          stack.flink());
    }

    @Override
    public String killTaskManager() throws Exception {
      return stack
          .flink()
          .orElseThrow(() -> new IOException("the jobs run on no Flink cluster of this run"))
          .killTaskManager(stack.cpu());
    }

    @Override
    public double saveAndRestart(String job) throws Exception {
      long start = System.nanoTime();
      jobs.stop(job, segment, StopMode.SAVEPOINT);
      double seconds = (System.nanoTime() - start) / 1e9;
      jobs.start(
          job, stack.host(), stack.bigQuery(), segment, stack.cpu(), stack.watch(), stack.flink());
      return seconds;
    }

    @Override
    public String processName(String job) {
      return jobs.processName(job);
    }
  }

  /** What the feed has given the job so far, a search's count, or the plan's. */
  private long messagesFor(String job) {
    if (feed != null) {
      return feed.published(job);
    }
    return publishing == null ? plan.messages() : publishing.expected().orElse(plan.messages());
  }

  private <T extends AutoCloseable> T keep(T closeable) {
    return started.keep(closeable);
  }

  @Override
  public void startJob(String stage, String job) throws Exception {
    if (feed != null) {
      feed.start(job);
      if (draining && !feed.bounded()) {
        feed.stop(job);
      }
    }
    if (stack.death().isPresent()) {
      throw new IOException(stack.death().get());
    }
    jobs.start(
        job, stack.host(), stack.bigQuery(), segment, stack.cpu(), stack.watch(), stack.flink());
    startedJobs.add(job);
    if (publishing != null) {
      publishing.jobStarted(List.copyOf(startedJobs));
    }
  }

  @Override
  public boolean stopJob(String stage, String job, StopMode mode) throws Exception {
    if (feed != null) {
      feed.stop(job); // a Pub/Sub job is verified on what it was fed until now (a Kafka job: see
      // StoppedJobs)
    }
    boolean wasRunning;
    try {
      wasRunning = jobs.stop(job, segment, mode);
    } catch (IOException e) {
      // A server that died had the watch stop the consumer: the death is the reason to report.
      if (stack.death().isPresent()) {
        throw new IOException(stack.death().get(), e);
      }
      throw e;
    }
    if (!wasRunning) {
      return false;
    }
    if (feed != null) {
      feed.stopped(job);
    }
    accounts.stopped(job);
    return true;
  }

  /**
   * A job that ended because a server died (the watch records the death, then stops every consumer)
   * is read as the death: between this tick's check and the read the watch may have stopped it.
   */
  @Override
  public StageTarget.JobReading read(String job) throws Exception {
    OptionalInt exit = jobs.ended(job);
    if (exit.isPresent() && stack.death().isPresent()) {
      throw new IOException(stack.death().get());
    }
    return shortStops.seen(job, accounts.read(job, exit, messagesFor(job), jobs.log(job, segment)));
  }

  @Override
  public void follow(String stage, List<String> running) {
    Map<String, LongSupplier> pids = new LinkedHashMap<>();
    // On a cluster every job's tasks share the TaskManagers: no JVM is one job's, so no CPU is
    // attributed per job (processes_cpu.csv has each TaskManager's).
    running.forEach(
        j -> pids.put(j, runner.consumerJvmRunsPipeline() ? () -> jobs.pid(j) : () -> -1L));
    accounts.follow(stage, pids);
  }

  @Override
  public List<ScenarioSample> samples() {
    return accounts.samples();
  }

  /**
   * The last stage's faults end; waits until everything this JVM publishes is published, so every
   * job is judged on the same count.
   */
  @Override
  public void awaitPublished() throws Exception {
    faults.stageEnded();
    if (publishing != null) {
      publishing.awaitPublished(List.copyOf(plan.jobs().keySet()));
    }
    published = accounts.published();
  }

  /** The job's figures, as {@link ShortStops} judges a consumer that stopped short. */
  @Override
  public JobCounts count(String stage, String job, boolean exactlyOnce) throws Exception {
    return shortStops.judged(job, countOf(stage, job, exactlyOnce), jobs.log(job, segment));
  }

  private JobCounts countOf(String stage, String job, boolean exactlyOnce) throws Exception {
    if (feed == null) {
      return accounts.count(stage, job, exactlyOnce, published, null);
    }
    return feed.failure() == null
        ? accounts.count(stage, job, exactlyOnce, feed.published(job), null)
        : accounts.count(
            stage,
            job,
            exactlyOnce,
            null,
            "feeding its topic failed ("
                + feed.failure().getMessage()
                + "), so what was published to it is not known");
  }

  @Override
  public String unfinishedStreams() throws Exception {
    return accounts.unfinishedStreams();
  }

  @Override
  public void close() throws Exception {
    started.close();
  }
}
