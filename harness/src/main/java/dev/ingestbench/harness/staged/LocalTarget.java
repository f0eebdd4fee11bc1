package dev.ingestbench.harness.staged;

import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.report.UnfinishedStreams;
import dev.ingestbench.contracts.ProcessCpuColumns;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.contracts.StopMode;
import dev.ingestbench.harness.flink.TaskManagerKill;
import dev.ingestbench.harness.process.BigQueryEmulatorProcess;
import dev.ingestbench.harness.process.ChildJvm;
import dev.ingestbench.harness.process.ConsumerKill;
import dev.ingestbench.harness.process.ProcessLauncher;
import dev.ingestbench.harness.process.StartedResources;
import dev.ingestbench.harness.source.KafkaFeed;
import dev.ingestbench.harness.source.LiveMessages;
import dev.ingestbench.harness.source.PubsubFeed;
import dev.ingestbench.harness.source.SourceFeed;
import dev.ingestbench.harness.spec.FlinkClusterSpec;
import dev.ingestbench.harness.stack.LocalStack;
import dev.ingestbench.scenario.Durations;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.scenario.ScenarioPlan.PlannedStage;
import dev.ingestbench.scenario.StageFaults;
import dev.ingestbench.scenario.Until;
import dev.ingestbench.verification.JobCounts;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * The local target of a staged scenario: one Pub/Sub emulator (or Kafka broker) and one BigQuery
 * emulator shared by every job, the backlog published when a segment opens (and live messages
 * during the stages), one consumer JVM per job. {@link StagedDriver} sequences, measures and judges
 * the stages.
 *
 * <p>Local servers keep no state between runs, so each segment publishes the backlog again.
 */
public final class LocalTarget implements StageTarget {
  /**
   * How long a resumed run waits for the jobs it starts again to be steady, unless --warm-up-max
   * says.
   */
  public static final Duration DEFAULT_WARM_UP_MAX = Duration.ofMinutes(2);

  /**
   * How long the run waits, after its last stage, for the live publisher to publish what is left.
   */
  private static final Duration LIVE_FINISH_MAX = Duration.ofMinutes(10);

  private final ScenarioPlan plan;
  private final Duration warmUpMax;
  private final RunDirectory dir;
  private final ScenarioRun run;
  private final String heap;
  private final ScenarioSource source;
  private final LocalServices services;
  private final LocalJobs jobs;
  private final FlinkClusterSpec cluster;
  private final Map<String, Map<String, String>> labels;

  /** Starts the publishers and the consumers (a test's scripted processes). */
  private final ProcessLauncher launcher;

  /** Runs the plan's max-rate stages (rounds of their own); none until given. */
  private MaxRateStages maxRates;

  /** The segment open now, whose source a load-test stage measures. */
  private LocalSegment current;

  /**
   * @param cluster the Flink cluster the jobs are submitted to ({@code --target flink}), or null
   *     for an embedded Flink in each job's JVM
   */
  public LocalTarget(
      ScenarioPlan plan,
      RunDirectory dir,
      ScenarioRun run,
      String heap,
      Duration warmUpMax,
      FlinkClusterSpec cluster) {
    this(plan, dir, run, heap, warmUpMax, cluster, ProcessLauncher.SYSTEM);
  }

  /** As above, its publishers and consumers started by {@code launcher}. */
  LocalTarget(
      ScenarioPlan plan,
      RunDirectory dir,
      ScenarioRun run,
      String heap,
      Duration warmUpMax,
      FlinkClusterSpec cluster,
      ProcessLauncher launcher) {
    this.plan = plan;
    this.launcher = launcher;
    this.cluster = cluster;
    this.warmUpMax = warmUpMax;
    this.dir = dir;
    this.run = run;
    this.heap = heap;
    this.source = ScenarioSource.of(plan);
    this.services = new LocalServices(plan, source);
    long longest = plan.stages().stream().mapToLong(s -> s.longest().getSeconds()).sum();
    this.jobs =
        new LocalJobs(plan, longest + warmUpMax.getSeconds() + 600, heap, cluster, launcher);
    this.labels = jobs.resultLabels(plan.jobs().keySet(), run.machine());
  }

  /** Every job's result labels: its settings as it runs, the run's scale and machine. */
  public Map<String, Map<String, String>> resultLabels() {
    return labels;
  }

  /** Who runs the plan's {@code find_max_rate} stages. */
  public LocalTarget withMaxRateStages(MaxRateStages stages) {
    this.maxRates = stages;
    return this;
  }

  /**
   * How a fed run publishes, for run.json's scaled values and the report (see {@link PubsubFeed},
   * {@link KafkaFeed}).
   */
  public static String feedNote(ScenarioPlan plan) {
    return ScenarioSource.of(plan).feedNote();
  }

  private StagedDriver driver() {
    return new StagedDriver(plan, dir, run, this, warmUpMax, Ticker.system(), labels)
        .withExecutors(new StageExecutors(this::loadTest, maxRates));
  }

  /** --dry-run: every action, with the command line of every process, and nothing started. */
  public void describe(PrintStream out) {
    int first = driver().firstUnfinished();
    Path segment = dir.root().resolve("segment-N");
    String pubsub = source.addressPlaceholder();
    BigQueryEmulatorProcess.Address bq = new BigQueryEmulatorProcess.Address("BQ_GRPC", "BQ_REST");
    out.println("Would run " + plan.scenario().name() + " locally into " + dir.root() + ":");
    if (cluster != null) {
      out.println(
          "  "
              + (cluster.external()
                  ? "check the Flink cluster at " + cluster.master() + " -> FLINK_MASTER"
                  : "start a Flink session cluster: a JobManager and "
                      + cluster.workers()
                      + " TaskManagers of "
                      + cluster.slots()
                      + " slots, each its own JVM, on free loopback ports -> FLINK_MASTER")
              + "; submit every job to it with parallelism "
              + cluster.jobParallelism());
    }
    out.println(source.describeServer());
    out.println(
        "  start the BigQuery emulator: ingestbench bigquery-emulator "
            + String.join(" ", services.bigQueryEmulatorArgs(segment)));
    source.describeTopic(out);
    if (plan.backlog() > 0 && !plan.fedLocally()) {
      out.println(
          String.format(
              Locale.ROOT,
              "  publish the backlog (%,d messages): ingestbench publish %s",
              plan.backlog(),
              String.join(" ", services.backlogPublisherArgs(pubsub, segment))));
    }
    if (plan.liveMessages() > 0) {
      out.println(
          String.format(
              Locale.ROOT,
              "  publish %,d live messages (event indexes %,d-%,d) at %s msg/s during the stages,"
                  + " from this JVM with the %s, each at the time the rate means it to be"
                  + " sent; then write %s",
              plan.liveMessages(),
              plan.backlog(),
              plan.backlog() + plan.liveMessages() - 1,
              plan.rate() >= 10 ? Numbers.f0(plan.rate()) : Numbers.f2(plan.rate()),
              source.clientName(),
              segment.resolve(RunFiles.PUBLISHER_LIVE)));
    }
    if (first > 0) {
      out.println(
          "  skip stages 1-"
              + first
              + " (finished); restart "
              + plan.runningBefore(first)
              + " and wait until steady (max "
              + Durations.show(warmUpMax)
              + ")");
    }
    for (int k = first; k < plan.stages().size(); k++) {
      PlannedStage st = plan.stages().get(k);
      out.println(
          String.format(Locale.ROOT, "  stage %d/%d %s:", k + 1, plan.stages().size(), st.name()));
      if (st.isMaxRateSearch()) {
        if (maxRates != null) {
          maxRates.describe(st, out);
        } else {
          out.println("    (no max-rate stages on this target)");
        }
        continue;
      }
      if (st.isLoadTest()) {
        out.println(
            "    ingestbench pubsub-load "
                + String.join(
                    " ",
                    LoadTestStage.args(
                        st,
                        "PUBSUB_HOST",
                        plan.scenario().source().topic(),
                        LoadTestStage.directory(dir.root(), st)))
                + " (with "
                + st.running()
                + " running); then write status/"
                + st.marker()
                + ".json");
        continue;
      }
      for (String job : st.stop()) {
        out.println("    stop job " + job + " (close its stdin; it writes its results and exits)");
      }
      for (String job : st.start()) {
        out.println(
            "    start job "
                + job
                + ": ingestbench consume "
                + String.join(" ", jobs.args(job, pubsub, bq, segment, null)));
      }
      StageFaults faults = st.faults();
      if (faults.killsConsumers()) {
        out.println(
            "    kill each running job's consumer (SIGKILL) "
                + (faults.killConsumerAt() != null
                    ? Durations.show(faults.killConsumerAt())
                        + " into the stage"
                        + (faults.crashEvery() != null
                            ? ", then "
                                + Durations.show(faults.crashEvery())
                                + " after each later life starts writing"
                            : "")
                    : Durations.show(faults.crashEvery())
                        + " after each of its lives starts writing")
                + ", once it has written and completed a Flink checkpoint; start it again from that"
                + " checkpoint ("
                + LocalJobs.flinkState(segment, "JOB")
                + ")");
      }
      if (faults.killsTaskManager()) {
        out.println(
            "    kill a TaskManager of the cluster (SIGKILL) "
                + Durations.show(faults.killTaskManagerAt())
                + " after every running job has written; Flink restores the jobs that lost tasks"
                + " from their last checkpoint, and a fresh TaskManager takes its place");
      }
      if (st.liveProfile() != null) {
        out.println(
            "    step the live rate through "
                + st.liveProfile()
                + " from the stage's start (1x = "
                + Numbers.f0(plan.rate())
                + " msg/s), then publish at 1x again");
      }
      out.println(
          "    "
              + st.condition()
              + " with "
              + st.running()
              + " running; then measure and write status/"
              + st.marker()
              + ".json");
    }
    out.println(
        "  stop every job; count what each left in its "
            + source.leftIn()
            + " and verify it (lost = published - accounted for - left)");
    out.println(
        "  stop the "
            + source.serverName()
            + " and the BigQuery emulator; write report.md and results.jsonl");
  }

  /** Runs the unfinished stages here; returns the verification policy's exit code. */
  public int run() throws Exception {
    return driver().run();
  }

  /**
   * A load-test stage: against the open segment's source, on a topic of its own ({@link
   * LoadTestStage}).
   */
  private LoadTestStage.Outcome loadTest(PlannedStage st, int segmentNo) throws Exception {
    return LoadTestStage.run(
        st,
        run,
        current.stack.host(),
        plan.scenario().source().topic(),
        dir.root(),
        segmentNo,
        Map.of("scale", Double.toString(plan.scale()), "machine", run.machine()));
  }

  @Override
  public Segment open(int segmentNo, Path segment) throws Exception {
    LocalSegment opened = new LocalSegment(segment);
    try {
      opened.start();
      current = opened;
      return opened;
    } catch (Exception | Error e) {
      opened.close();
      throw e;
    }
  }

  /** One segment's servers, publishers and jobs; closing it stops every one, newest first. */
  private final class LocalSegment implements Segment {
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

    /** The stage whose kill schedule begins at the next tick (once its jobs started), or null. */
    private PlannedStage killing;

    /**
     * The current stage's consumer kills ({@code kill_consumer_at}, {@code crash_every}), or null.
     */
    private ConsumerKill<ChildJvm> kill;

    /** The stage whose schedule {@link #kill} is. */
    private String killingStage;

    /** The jobs {@link #kill} kills, in its order. */
    private List<String> killed = List.of();

    /** The current stage's {@code kill_taskmanager_at}, or null. */
    private TaskManagerKill taskManagerKill;

    /** The stage whose {@link #taskManagerKill} it is. */
    private PlannedStage taskManagerStage;

    /** {@link #taskManagerKill} has killed. */
    private boolean taskManagerKilled;

    LocalSegment(Path segment) {
      this.segment = segment;
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
      if (plan.fedLocally()) {
        feed = source.feed(stack.host(), sampler::status, stack.cpu());
        keep(this::closeFeed);
      } else {
        source.prepare(stack.host());
      }
      if (plan.backlog() > 0 && feed == null) {
        say(
            "Publishing the backlog: %,d messages of %,d bytes",
            plan.backlog(), plan.messageSize());
        try (ChildJvm publisher =
            ChildJvm.start(
                launcher,
                ProcessCpuColumns.BACKLOG_PUBLISHER,
                heap,
                LocalServices.PUBLISHER_MAIN,
                services.backlogPublisherArgs(stack.host(), segment),
                segment.resolve("publisher.log"))) {
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
      sayKills();
      kill = null; // a kill schedule is its stage's
      killing = st.faults().killsConsumers() ? st : null;
      taskManagerKill =
          st.faults().killsTaskManager()
              ? new TaskManagerKill(st.faults().killTaskManagerAt().toSeconds(), System::nanoTime)
              : null;
      taskManagerStage = st;
      taskManagerKilled = false;
      if (feed != null && draining) {
        say("Stage %s waits until the jobs drain: feeding stops", st.name());
        feed.stopAll();
      }
      if (live != null) {
        live.stepThrough(st.liveProfile()); // none: back to the scenario's rate
        if (st.liveProfile() != null) {
          say(
              "Stage %s steps the live rate through %s (1x = %s msg/s)",
              st.name(), st.liveProfile(), Numbers.f0(plan.rate()));
        }
      }
    }

    /** How often the stage that just ended killed its jobs' consumers, or its TaskManager. */
    private void sayKills() {
      if (taskManagerKill != null && !taskManagerKilled) {
        say(
            "Stage %s ended before its kill_taskmanager_at came (its running jobs had not all"
                + " written, or not for that long): no TaskManager was killed",
            taskManagerStage.name());
      }
      taskManagerKill = null;
      if (kill != null) {
        say(
            "Stage %s: consumers killed (SIGKILL) and restored from a checkpoint %d time(s) in all",
            killingStage, kill.kills());
      }
    }

    /**
     * A server's death or the BigQuery emulator's silence ends the run; else the stage's
     * TaskManager kill once its jobs have written, and its consumer kills, whose schedule begins
     * once its jobs have started.
     */
    @Override
    public void tick() throws Exception {
      if (stack.death().isPresent()) {
        throw new IOException(stack.death().get());
      }
      if (sampler.problem() != null) {
        throw new IOException("the BigQuery emulator stopped answering: " + sampler.problem());
      }
      if (taskManagerKill != null && !taskManagerKilled) {
        boolean everyJobWriting = true;
        for (String job : taskManagerStage.running()) {
          everyJobWriting &= sampler.latestAccountedFor(job) > 0;
        }
        taskManagerKilled =
            taskManagerKill.tick(
                everyJobWriting, () -> say("%s", stack.flink().killTaskManager(stack.cpu())));
      }
      if (killing != null) {
        StageFaults f = killing.faults();
        killed = killing.running();
        kill =
            new ConsumerKill<>(
                    f.killConsumerAt() == null ? null : f.killConsumerAt().toSeconds(),
                    f.crashEvery() == null ? null : f.crashEvery().toSeconds(),
                    killed.stream().map(job -> LocalJobs.flinkState(segment, job)).toList(),
                    (j, life, checkpoint) ->
                        jobs.restart(
                            killed.get(j - 1),
                            checkpoint,
                            stack.host(),
                            stack.bigQuery(),
                            segment,
                            stack.cpu(),
                            stack.watch()),
                    j -> sampler.latestAccountedFor(killed.get(j)))
                .speakingAs("run", name -> "job " + name + "'s consumer");
        killingStage = killing.name();
        killing = null;
      }
      if (kill != null) {
        List<ChildJvm> consumers = new ArrayList<>();
        for (String job : killed) {
          ChildJvm jvm = jobs.jvm(job);
          if (jvm == null) {
            return; // stopped in this stage: the schedule is over with it
          }
          consumers.add(jvm);
        }
        kill.tick(consumers);
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
    public JobReading read(String job) throws Exception {
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
      return new JobReading(
          exit, messagesFor(job), accounted, shared, segment.resolve(job + ".log"));
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
     * Waits for the live publisher to publish all it was asked to, so every job is judged on the
     * same count.
     */
    @Override
    public void awaitPublished() throws Exception {
      sayKills();
      kill = null;
      if (live != null) {
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

  public static void say(String format, Object... args) {
    RunLog.say(format, args);
  }
}
