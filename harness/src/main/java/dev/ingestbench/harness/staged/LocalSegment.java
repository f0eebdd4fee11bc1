package dev.ingestbench.harness.staged;

import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.report.UnfinishedStreams;
import dev.ingestbench.contracts.ProcessCpuColumns;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.contracts.StopMode;
import dev.ingestbench.harness.process.ChildJvm;
import dev.ingestbench.harness.process.ProcessLauncher;
import dev.ingestbench.harness.process.StartedResources;
import dev.ingestbench.harness.source.LiveMessages;
import dev.ingestbench.harness.source.SourceFeed;
import dev.ingestbench.harness.spec.ChildFlags;
import dev.ingestbench.harness.spec.FlinkClusterSpec;
import dev.ingestbench.harness.stack.LocalStack;
import dev.ingestbench.scenario.Durations;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.scenario.ScenarioPlan.PlannedStage;
import dev.ingestbench.scenario.Until;
import dev.ingestbench.verification.JobCounts;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * One segment of a local scenario: its servers (the local stack), its backlog, live messages or
 * feed, its jobs' consumers and the faults its stages inject; closing it stops every one, newest
 * first. {@link LocalTarget} opens one per start of the run.
 */
final class LocalSegment implements StageTarget.Segment {
  /**
   * How long the run waits, after its last stage, for the live publisher to publish what is left.
   */
  private static final Duration LIVE_FINISH_MAX = Duration.ofMinutes(10);

  private final ScenarioPlan plan;
  private final RunDirectory dir;
  private final String heap;
  private final ScenarioSource source;
  private final LocalServices services;
  private final LocalJobs jobs;

  /** --target flink's cluster, else null (embedded Flink in each job's JVM). */
  private final FlinkClusterSpec cluster;

  /** Starts the publishers and the consumers (a test's scripted processes). */
  private final ProcessLauncher launcher;

  private final Path segment;
  private final StartedResources started = new StartedResources();
  private ScenarioSampler sampler;

  /** The servers, their CPU records and their watch (a death ends the stage). */
  private LocalStack stack;

  private LiveMessages live;
  private StoppedJobs stopped;
  private Long published;

  /** Feeds the jobs as fast as they read, on a scaled-down backlog-only run (else null). */
  private SourceFeed feed;

  /** The current stage waits until its jobs drain: nothing more is fed. */
  private boolean draining;

  /** The current stage's consumer kills and TaskManager kill. */
  private SegmentFaults faults;

  LocalSegment(
      ScenarioPlan plan,
      RunDirectory dir,
      String heap,
      ScenarioSource source,
      LocalServices services,
      LocalJobs jobs,
      FlinkClusterSpec cluster,
      ProcessLauncher launcher,
      Path segment) {
    this.plan = plan;
    this.dir = dir;
    this.heap = heap;
    this.source = source;
    this.services = services;
    this.jobs = jobs;
    this.cluster = cluster;
    this.launcher = launcher;
    this.segment = segment;
  }

  /** The source's HOST:PORT, where a load-test stage publishes. */
  String sourceHost() {
    return stack.host();
  }

  private static void say(String format, Object... args) {
    RunLog.say(format, args);
  }

  void start() throws Exception {
    // A resumed run gets new servers: its topic is published again into the new segment.
    stack =
        new LocalStack(
            new LocalStack.Spec(
                segment,
                "run",
                cluster,
                plan.kafka(),
                plan.scenario().source().topic(),
                plan.partitions(),
                services.bigQueryEmulatorArgs(segment)),
            started,
            line -> say("%s", line));
    stack.start();
    keep(jobs::close);
    keep(stack::stopWatching); // first: the jobs' stopping is not a death
    sampler = keep(new ScenarioSampler(stack.bigQuery().rest(), dir.samplesWriter()));
    stopped = new StoppedJobs(plan, source, stack.host(), sampler, segment);
    faults =
        new SegmentFaults(
            new FaultedJobs(),
            line -> say("%s", line),
            "run",
            name -> "job " + name + "'s consumer",
            true);
    if (plan.fedLocally()) {
      feed = source.feed(stack.host(), sampler::status, stack.cpu());
      keep(this::closeFeed);
    } else {
      source.prepare(stack.host());
    }
    if (plan.backlog() > 0 && feed == null) {
      say("Publishing the backlog: %,d messages of %,d bytes", plan.backlog(), plan.messageSize());
      try (ChildJvm publisher =
          ChildJvm.start(
              launcher,
              ProcessCpuColumns.BACKLOG_PUBLISHER,
              heap,
              ChildFlags.PUBLISHER_MAIN,
              services.backlogPublisherArgs(stack.host(), segment),
              segment.resolve("publisher.log"))) {
        stack.watch().stopOnDeath(publisher); // as a round's: a dead server ends it at once
        stack.cpu().watch(ProcessCpuColumns.BACKLOG_PUBLISHER, publisher.pid());
        publisher.requireSuccess(3_600);
      }
    }
    if (plan.liveMessages() > 0) {
      say(
          "Publishing %,d live messages at %,.0f msg/s while the stages run",
          plan.liveMessages(), plan.rate());
      stack.cpu().watch(ProcessCpuColumns.SELF_PUBLISHING_LIVE, ProcessHandle.current().pid());
      live = keep(services.liveMessages(stack.host(), segment));
    }
  }

  /** Stops the feed and writes what it fed each job: feed.json. */
  private void closeFeed() throws Exception {
    feed.close();
    RunJson.write(segment.resolve(RunFiles.FEED), feed.result());
  }

  @Override
  public void stageStarting(PlannedStage st) {
    draining = st.until() == Until.DRAINED;
    faults.stageStarting(st);
    if (feed != null && draining) {
      say("Stage %s waits until the jobs drain: feeding stops", st.name());
      feed.stopAll();
    }
    if (live != null) {
      live.stepThrough(st.liveProfile()); // none: back to the scenario's rate
      if (st.liveProfile() != null) {
        say(
            "Stage %s steps the live rate through %s (1x = %s msg/s)",
            st.name(), st.liveProfile(), Numbers.rate(plan.rate()));
      }
    }
  }

  /**
   * A server's death or the BigQuery emulator's silence ends the run; else the stage's TaskManager
   * kill once its jobs have written, and its consumer kills, whose schedule begins once its jobs
   * have started.
   */
  @Override
  public void tick() throws Exception {
    if (stack.death().isPresent()) {
      throw new IOException(stack.death().get());
    }
    if (sampler.problem() != null) {
      throw new IOException("the BigQuery emulator stopped answering: " + sampler.problem());
    }
    faults.tick();
  }

  /** This segment's jobs as its faults see them. */
  private final class FaultedJobs implements SegmentFaults.Jobs {
    @Override
    public ChildJvm jvm(String job) {
      return jobs.jvm(job);
    }

    @Override
    public long accountedFor(String job) {
      return sampler.latestAccountedFor(job);
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
      return stack.flink().killTaskManager(stack.cpu());
    }
  }

  /** The plan's count, or what the feed has given the job so far. */
  private long messagesFor(String job) {
    return feed != null ? feed.published(job) : plan.messages();
  }

  private <T extends AutoCloseable> T keep(T closeable) {
    return started.keep(closeable);
  }

  @Override
  public void startJob(String stage, String job) throws Exception {
    if (feed != null) {
      feed.start(job);
      if (draining) {
        feed.stop(job);
      }
    }
    if (stack.death().isPresent()) {
      throw new IOException(stack.death().get());
    }
    jobs.start(
        job, stack.host(), stack.bigQuery(), segment, stack.cpu(), stack.watch(), stack.flink());
  }

  @Override
  public boolean stopJob(String stage, String job, StopMode mode) throws Exception {
    if (feed != null) {
      feed.stop(job); // a Pub/Sub job is verified on what it was fed until now (a Kafka job: see
      // stopped)
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
    stopped.stopped(job);
    return true;
  }

  /**
   * An ended job's count is read from the BigQuery emulator now; a running job's is its latest
   * sample's, or its consumer group's.
   */
  @Override
  public StageTarget.JobReading read(String job) throws Exception {
    OptionalInt exit = jobs.ended(job);
    long accounted;
    boolean shared = false;
    if (exit.isPresent()) {
      accounted = sampler.job(job).accountedFor();
    } else {
      OptionalLong group = groupAccountedFor(job);
      shared = group.isPresent();
      accounted = shared ? group.getAsLong() : sampler.latestAccountedFor(job);
    }
    return new StageTarget.JobReading(
        exit, messagesFor(job), accounted, shared, jobs.log(job, segment));
  }

  /**
   * A shared Kafka consumer group's members: the largest member's count is a lower bound of the
   * group's, and the union of their indexes is read from the BigQuery emulator only once their
   * counts together could reach what was published.
   */
  private OptionalLong groupAccountedFor(String job) throws Exception {
    List<String> group = source.groupOf(job);
    if (group.size() < 2) {
      return OptionalLong.empty();
    }
    Map<String, Long> latest = new LinkedHashMap<>();
    for (ScenarioSample s : sampler.samples()) {
      if (group.contains(s.job())) {
        latest.merge(s.job(), s.accountedFor(), Math::max);
      }
    }
    long sum = latest.values().stream().mapToLong(Long::longValue).sum();
    if (sum < messagesFor(job)) {
      return OptionalLong.of(latest.values().stream().mapToLong(Long::longValue).max().orElse(0));
    }
    return OptionalLong.of(StoppedJobs.accountedBy(group, sampler::accounted).cardinality());
  }

  @Override
  public void follow(String stage, List<String> running) {
    Map<String, LongSupplier> pids = new LinkedHashMap<>();
    // On a cluster every job's tasks share the TaskManagers: no JVM is one job's, so no CPU is
    // attributed per job (processes_cpu.csv has each TaskManager's).
    running.forEach(j -> pids.put(j, cluster != null ? () -> -1L : () -> jobs.pid(j)));
    sampler.follow(stage, pids);
  }

  @Override
  public List<ScenarioSample> samples() {
    return sampler.samples();
  }

  /**
   * Waits for the live publisher to publish all it was asked to, so every job is judged on the same
   * count.
   */
  @Override
  public void awaitPublished() throws Exception {
    faults.stageEnded();
    if (live != null) {
      live.stepThrough(null); // a profile's steps end with its stage
      if (live.publishing()) {
        say(
            "Waiting for the live messages to be published (max %s) before the jobs are verified",
            Durations.show(LIVE_FINISH_MAX));
      }
      // Still publishing then: stopped, and with no result file the jobs are reported as not
      // verified.
      live.finish(LIVE_FINISH_MAX);
    }
    published = stopped.published();
  }

  @Override
  public JobCounts count(String stage, String job, boolean exactlyOnce) throws Exception {
    if (feed == null) {
      return stopped.count(stage, job, exactlyOnce, published, null);
    }
    return feed.failure() == null
        ? stopped.count(stage, job, exactlyOnce, feed.published(job), null)
        : stopped.count(
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
    return UnfinishedStreams.sentence(sampler.status());
  }

  @Override
  public void close() throws Exception {
    started.close();
  }
}
