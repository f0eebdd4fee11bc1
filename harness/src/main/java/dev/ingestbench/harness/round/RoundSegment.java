package dev.ingestbench.harness.round;

import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.ProcessCpuColumns;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.contracts.StopMode;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.harness.process.ChildJvm;
import dev.ingestbench.harness.process.ProcessLauncher;
import dev.ingestbench.harness.process.StartedResources;
import dev.ingestbench.harness.source.KafkaEventSender;
import dev.ingestbench.harness.source.PubsubEventSender;
import dev.ingestbench.harness.spec.ChildFlags;
import dev.ingestbench.harness.spec.OutDirectory;
import dev.ingestbench.harness.stack.LocalStack;
import dev.ingestbench.harness.staged.LocalJobs;
import dev.ingestbench.harness.staged.SegmentFaults;
import dev.ingestbench.harness.staged.StageTarget;
import dev.ingestbench.pubsub.PubsubAdmin;
import dev.ingestbench.pubsub.PubsubPaths;
import dev.ingestbench.scenario.ScenarioPlan.PlannedStage;
import dev.ingestbench.verification.JobCounts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.LongSupplier;

/**
 * The one segment a round is: its servers (the local stack, with the files at the top of --out),
 * its backlog, its consumers, its live messages once the backlog is drained, its faults and, with
 * --find-max-rate, the search; closing it stops every one, newest first. {@link RoundTarget} opens
 * it.
 */
final class RoundSegment implements StageTarget.Segment {

  private final RoundSpec spec;
  private final RoundPlan plan;

  /** Starts the publisher and the consumers (a test's scripted processes). */
  private final ProcessLauncher launcher;

  /** The round's servers, once started. */
  private volatile LocalStack stack;

  private final StartedResources started = new StartedResources();

  RoundSegment(RoundSpec spec, RoundPlan plan, ProcessLauncher launcher) {
    this.spec = spec;
    this.plan = plan;
    this.launcher = launcher;
    this.jobs = new LocalJobs(plan, spec.heap(), spec.cluster() != null, launcher);
  }

  /** Consumers killed and restored so far. */
  int kills() {
    return faults == null ? 0 : faults.kills();
  }

  /** Why the round could not go on: a server died. */
  Optional<String> death() {
    return stack == null ? Optional.empty() : stack.death();
  }

  private static String job(int j) {
    return RoundTarget.job(j);
  }

  private static void say(String format, Object... args) {
    System.out.println("[round] " + String.format(Locale.ROOT, format, args));
  }

  /** The jobs' consumers, each named by its job ({@code job-1}). */
  private final LocalJobs jobs;

  /** The jobs started so far, in order. */
  private final List<String> startedJobs = new ArrayList<>();

  /** --kill-consumer-at, --crash-every and --kill-taskmanager-at: the one stage's faults. */
  private SegmentFaults faults;

  /** The live messages, once the backlog is drained. */
  private RoundLiveMessages live;

  /** --find-max-rate's search, else null. */
  private RoundRateSearch search;

  /** The search has ended and every consumer was asked to stop once it had written all. */
  private boolean searchEnded;

  void start() throws Exception {
    Path out = spec.out();
    stack =
        new LocalStack(
            new LocalStack.Spec(
                out,
                "round",
                spec.cluster(),
                plan.kafka(),
                RoundPlan.TOPIC,
                plan.partitions(),
                spec.sink() == RoundSpec.Sink.EMULATOR ? plan.bigQueryEmulatorArgs() : null),
            started,
            line -> say("%s", line));
    stack.start();
    faults =
        new SegmentFaults(
            new FaultedJobs(), line -> say("%s", line), "round", name -> "the " + name, false);
    if (plan.kafka() && spec.jobs() > 1) {
      say(
          "Jobs in %s",
          spec.sharedConsumerGroup() ? "one shared consumer group" : "separate consumer groups");
    }
    keep(this::stopProcesses);
    keep(stack::stopWatching); // first: the processes' stopping is not a death
    live =
        keep(
            new RoundLiveMessages(
                spec,
                plan,
                stack,
                roundTopic(),
                topicPath(),
                generator(),
                line -> say("%s", line)));
    if (!plan.kafka()) {
      // The topic and every job's subscription exist before anything is published (the Kafka
      // topic is the stack's): the backlog is kept for each job, and the live messages, which
      // this JVM publishes, have a topic even when there is no backlog.
      PubsubAdmin.ensureTopicAndSubscriptions(
          stack.host(),
          topicPath(),
          plan.subscriptions().stream()
              .map(sub -> PubsubPaths.subscription(RoundPlan.PROJECT, "--subscription", sub))
              .toList());
    }
    if (spec.searches()) {
      startSearch();
    }
    if (plan.backlogMessages() > 0) {
      try (ChildJvm publisher =
          ChildJvm.start(
              launcher,
              ProcessCpuColumns.BACKLOG_PUBLISHER,
              spec.heap(),
              ChildFlags.PUBLISHER_MAIN,
              plan.backlogPublisherArgs(stack.host()),
              out.resolve("publisher.log"))) {
        stack.watch().stopOnDeath(publisher);
        stack.cpu().watch(ProcessCpuColumns.BACKLOG_PUBLISHER, publisher.pid());
        publisher.requireSuccess(3_600);
      }
    }
  }

  /** Measures the publisher alone, before any consumer takes CPU. */
  private void startSearch() throws Exception {
    String host = stack.host();
    RoundRateSearch.Senders alone;
    if (plan.kafka()) {
      // The round's topic exists (the stack made it); the capacity topic, which nobody reads,
      // has one partition: what is measured is the producer, not the broker's parallelism.
      KafkaEventSender.createTopic(host, RoundRateSearch.PUBLISHER_TOPIC, 1);
      alone = () -> new KafkaEventSender(host, RoundRateSearch.PUBLISHER_TOPIC);
    } else {
      String capacityTopic =
          PubsubPaths.topic(RoundPlan.PROJECT, "--topic", RoundRateSearch.PUBLISHER_TOPIC);
      PubsubAdmin.ensureTopicAndSubscriptions(host, capacityTopic, List.of());
      alone = () -> new PubsubEventSender(host, capacityTopic);
    }
    search = new RoundRateSearch(spec.findMaxRate(), line -> say("%s", line));
    keep(search);
    search.measurePublisher(alone, generator());
  }

  /** The round's topic as its publisher's result names it. */
  private String topicPath() {
    return plan.kafka()
        ? RoundPlan.TOPIC
        : PubsubPaths.topic(RoundPlan.PROJECT, "--topic", RoundPlan.TOPIC);
  }

  /** Senders to the round's topic, which every job reads. */
  private RoundRateSearch.Senders roundTopic() {
    String host = stack.host();
    return plan.kafka()
        ? () -> new KafkaEventSender(host, RoundPlan.TOPIC)
        : () -> new PubsubEventSender(host, topicPath());
  }

  private TaxiRideGenerator generator() {
    return new TaxiRideGenerator(spec.seed(), spec.messageSize(), spec.messageFormat());
  }

  /** Every consumer has started: the probes begin. */
  private void probe() {
    List<LongSupplier> pids = new ArrayList<>();
    for (String job : startedJobs) {
      pids.add(() -> jobs.pid(job));
    }
    List<String> jobs = List.copyOf(startedJobs);
    search.start(
        new RoundRateSearch.Round(
            roundTopic(),
            topicPath(),
            generator(),
            stack.bigQuery(),
            jobs,
            pids,
            stack.sourcePid(),
            stack.sinkPid(),
            spec.out(),
            plan.runId,
            spec.messageSize()));
  }

  /**
   * Once the search has ended: each consumer, once it has accounted for everything published, is
   * asked to stop (its standard input closed), and writes its results.
   */
  private void endSearch() throws IOException {
    if (search.failure() != null) {
      Exception e = search.failure();
      throw new IOException("the max-rate search failed: " + e.getMessage(), e);
    }
    if (!search.finished() || searchEnded) {
      return;
    }
    long published = search.published();
    for (String job : startedJobs) {
      if (jobs.progress(job) < published && jobs.alive(job)) {
        return;
      }
    }
    searchEnded = true;
    say("Every job has written the search's %,d messages: stopping the consumers", published);
    for (String job : startedJobs) {
      if (jobs.alive(job)) {
        jobs.jvm(job).closeStdin();
      }
    }
  }

  private <T extends AutoCloseable> T keep(T closeable) {
    return started.keep(closeable);
  }

  /**
   * Stops every consumer still running (the live messages, kept later, stop before), and removes
   * the kill's checkpoints.
   */
  private void stopProcesses() throws IOException {
    jobs.close();
    OutDirectory.deleteTree(
        spec.out().resolve("checkpoints")); // --kill-consumer-at's, kept only while the round runs
  }

  /** The round's messages, or, while the search runs, at least what it has sent. */
  private long messagesFor(String job) {
    if (search != null) {
      // Known once the search has ended; until then at least what was sent.
      return search.finished() ? search.published() : Math.max(1, search.handed());
    }
    return spec.messages();
  }

  /**
   * Starts the job's consumer. A searching round stops its consumers by closing their standard
   * input; otherwise they stop once they have accounted for every message.
   */
  @Override
  public void startJob(String stage, String job) throws Exception {
    jobs.start(
        job, stack.host(), stack.bigQuery(), spec.out(), stack.cpu(), stack.watch(), stack.flink());
    startedJobs.add(job);
    if (startedJobs.size() == spec.jobs() && search != null) {
      probe();
    }
  }

  @Override
  public void stageStarting(PlannedStage st) {
    faults.stageStarting(st);
  }

  /** The round's jobs as its faults see them. */
  private final class FaultedJobs implements SegmentFaults.Jobs {
    @Override
    public ChildJvm jvm(String job) {
      return jobs.jvm(job);
    }

    @Override
    public long accountedFor(String job) {
      return jobs.progress(job);
    }

    @Override
    public Path checkpoints(String job) {
      return jobs.checkpoints(job, spec.out());
    }

    @Override
    public ChildJvm restart(String job, Path checkpoint) throws IOException {
      return jobs.restart(
          job,
          checkpoint,
          stack.host(),
          stack.bigQuery(),
          spec.out(),
          stack.cpu(),
          stack.watch(),
          stack.flink());
    }

    @Override
    public String killTaskManager() throws Exception {
      return stack.flink().killTaskManager(stack.cpu());
    }
  }

  /**
   * A server's death ends the round; else the kill when its time has come, and the live publisher
   * once every job has drained the backlog.
   */
  @Override
  public void tick() throws Exception {
    if (stack.death().isPresent()) {
      // The watch has already stopped every process that depended on the server.
      throw new IOException(stack.death().get());
    }
    faults.tick();
    if (search != null) {
      endSearch();
      return;
    }
    if (startedJobs.size() == spec.jobs()) {
      live.tick(startedJobs, jobs::progress, jobs::alive, plan::processName);
    }
  }

  /**
   * A round measures nothing while it runs ({@link StageTarget.Measures#NOTHING}): a running job
   * counts as having accounted for nothing, so that only its consumer's own stop, once it has
   * accounted for every message, ends the stage. Once stopped, what it counted is its result (its
   * last progress line may predate its final count).
   */
  @Override
  public StageTarget.JobReading read(String job) throws Exception {
    OptionalInt exit = jobs.ended(job);
    long accounted = 0;
    if (exit.isPresent()) {
      Path result = plan.jobDirectory(plan.jobNumber(job)).resolve(RunFiles.CONSUMER_RESULT);
      accounted =
          Files.exists(result)
              ? RunJson.read(result, ConsumerResult.class).accountedFor()
              : jobs.progress(job);
    }
    return new StageTarget.JobReading(exit, messagesFor(job), accounted, false, log(job));
  }

  /** Nothing to follow: a round is measured afterwards, from the timeline its BigQuery wrote. */
  @Override
  public void follow(String stage, List<String> jobs) {}

  @Override
  public List<ScenarioSample> samples() {
    return List.of();
  }

  /** The live publisher has finished once the jobs drained (they were waiting for its messages). */
  @Override
  public void awaitPublished() throws Exception {
    List<String> jobs = new ArrayList<>();
    for (int j = 1; j <= spec.jobs(); j++) {
      jobs.add(job(j));
    }
    faults.stageEnded();
    live.awaitPublished(jobs);
  }

  /**
   * A round's consumer stops by itself once it has accounted for every message: it has, unless the
   * round reached its time limit, when it is waited for as it stops at its own --timeout.
   */
  @Override
  public boolean stopJob(String stage, String job, StopMode mode) throws Exception {
    return jobs.stop(job, spec.out(), mode);
  }

  /** The job's figures from the files its processes wrote ({@link RoundJobCounts}). */
  @Override
  public JobCounts count(String stage, String job, boolean exactlyOnce) throws Exception {
    return RoundJobCounts.read(
        spec.out(),
        plan.jobDirectory(plan.jobNumber(job)),
        plan.processName(job),
        exactlyOnce,
        spec.timeoutSeconds(),
        log(job));
  }

  private Path log(String job) {
    return jobs.log(job, spec.out());
  }

  @Override
  public void close() throws Exception {
    started.close();
  }
}
