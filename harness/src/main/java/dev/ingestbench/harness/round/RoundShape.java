package dev.ingestbench.harness.round;

import dev.ingestbench.contracts.PublisherResult;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.harness.process.BigQueryEmulatorRest;
import dev.ingestbench.harness.source.EventSender;
import dev.ingestbench.harness.source.SourceFeed;
import dev.ingestbench.harness.spec.MaxRateSpec;
import dev.ingestbench.harness.spec.OutDirectory;
import dev.ingestbench.harness.stack.LocalStack;
import dev.ingestbench.harness.staged.LocalJobs;
import dev.ingestbench.harness.staged.RunLog;
import dev.ingestbench.harness.staged.ScenarioSource;
import dev.ingestbench.harness.staged.SegmentFaults;
import dev.ingestbench.harness.staged.SegmentPublishing;
import dev.ingestbench.harness.staged.SegmentShape;
import dev.ingestbench.harness.staged.SinkAccounts;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * What a round's one segment is made of ({@link SegmentShape}): its servers' files at the top of
 * {@code --out}, the round's topic and every job's subscription (or consumer group), the backlog
 * before any job starts, each job's accounts read from its sink once it stopped ({@link
 * SinkAccounts}), and what this JVM publishes: the live messages once the backlog is drained
 * ({@link RoundLiveMessages}), or the max-rate search's probes ({@link RoundSearchRun}).
 */
final class RoundShape implements SegmentShape {
  private final RoundSpec spec;
  private final RoundPlan plan;

  /** Where the jobs read: the round's topic, its subscriptions or consumer groups. */
  private final ScenarioSource source;

  /** When --feed began feeding; null without it. */
  private Instant fedFrom;

  RoundShape(RoundSpec spec, RoundPlan plan) {
    this.spec = spec;
    this.plan = plan;
    this.source = plan.source();
  }

  static void say(String format, Object... args) {
    RunLog.say("round", format, args);
  }

  private static final Consumer<String> SAY = RunLog.lines("round");

  @Override
  public String voice() {
    return "round";
  }

  @Override
  public LocalStack.Spec stack(Path segment) {
    return new LocalStack.Spec(
        spec.out(), "round", spec.runner(), source, plan.bigQueryEmulatorArgs().orElse(null));
  }

  /**
   * The topic and every job's subscription exist before anything is published (the Kafka topic is
   * the stack's): the backlog is kept for each job, and the live messages, which this JVM
   * publishes, have a topic even when there is no backlog.
   */
  @Override
  public void prepare(String host) throws Exception {
    source
        .consumerGroups()
        .ifPresent(
            groups ->
                say(
                    "Jobs in %s",
                    groups.equals("shared")
                        ? "one shared consumer group"
                        : "separate consumer groups"));
    source.prepare(host);
  }

  @Override
  public ScenarioSource source() {
    return source;
  }

  /** --feed: each job the round's backlog. */
  @Override
  public OptionalLong feedsUpTo() {
    return spec.feed() ? OptionalLong.of(plan.backlogMessages()) : OptionalLong.empty();
  }

  /**
   * --feed: the backlog in tranches as the jobs read it, each job fed the round's count (its own
   * Pub/Sub topic, named as its subscription; the Kafka topic), topped up by what the BigQuery
   * emulator says it accounted for. It makes the source ready itself.
   */
  @Override
  public SourceFeed feed(LocalStack stack, Path segment) throws Exception {
    // --feed needs the BigQuery emulator process (RoundSpec refuses it with an in-process sink).
    BigQueryEmulatorRest bigQuery = stack.bigQueryRest().orElseThrow();
    fedFrom = Instant.now();
    return source.feed(
        stack.host(), bigQuery::status, stack.cpu(), spec.seed(), feedsUpTo().getAsLong(), SAY);
  }

  /**
   * What the feed gave every job, as the round's backlog publisher's result ({@code
   * publisher_backlog.json}): each job read its own copy of the backlog, as every subscription of a
   * round's topic does; {@code requested} is the backlog, {@code published} what each job got, its
   * seconds from the first tranche to the last. Jobs fed different counts (a job stopped early, a
   * feed that failed: the round has failed its verification then) are given the least of them, and
   * said so; feed.json has each job's.
   */
  @Override
  public void fed(SourceFeed feed) throws IOException {
    List<Long> counts = plan.stages().jobs().keySet().stream().map(feed::published).toList();
    long published = counts.stream().mapToLong(Long::longValue).min().orElse(0);
    if (counts.stream().distinct().count() > 1) {
      say(
          "The jobs were fed different counts (%s): %s gives the least; each job's is in %s",
          counts, RunFiles.PUBLISHER_BACKLOG, RunFiles.FEED);
    }
    RunJson.write(
        spec.out().resolve(RunFiles.PUBLISHER_BACKLOG),
        PublisherResult.of(
            source.fedTopic(),
            plan.backlogMessages(),
            published,
            0,
            spec.messageSize(),
            0,
            fedFrom,
            feed.lastTopUp().orElse(fedFrom), // publishing ended with the last tranche
            plan.runId));
  }

  /** Fed, the backlog is published by the feed as the jobs read it, not before they start. */
  @Override
  public long backlog() {
    return spec.feed() ? 0 : plan.backlogMessages();
  }

  @Override
  public List<String> backlogPublisherArgs(String host, Path segment) {
    return plan.backlogPublisherArgs(host);
  }

  /**
   * Counted as a scenario's jobs are, from their sinks; read only once each stopped (a round
   * measures nothing while it runs), a running job's progress its consumer's own lines.
   */
  @Override
  public SinkAccounts accounts(LocalStack stack, Path segment, LocalJobs jobs) {
    return SinkAccounts.unsampled(
        plan.stages(),
        source,
        stack,
        plan.inProcessSinks(),
        job -> plan.log(job, spec.out()),
        spec.out(),
        jobs::progress,
        SAY);
  }

  @Override
  public SegmentPublishing publishing(LocalStack stack, Path segment, LocalJobs jobs)
      throws Exception {
    if (spec.searches()) {
      return new RoundSearchRun(spec, plan, stack, jobs, this).start();
    }
    Optional<LivePublishing> live = live(segment);
    if (live.isEmpty()) {
      return null;
    }
    return new RoundLiveMessages(
        spec, plan, stack, jobs, roundTopic(stack), live.get(), generator(), SAY);
  }

  @Override
  public SegmentFaults faults(SegmentFaults.Jobs faulted) {
    return new SegmentFaults(faulted, SAY, "round", name -> "the " + name, false);
  }

  /**
   * Once every job has accounted for the backlog, at --live-rate (stepped through --live-profile),
   * each step told to the BigQuery emulator when there is one; its result at the top of --out.
   */
  @Override
  public Optional<LivePublishing> live(Path segment) {
    if (spec.searches() || plan.liveMessages() == 0) {
      return Optional.empty();
    }
    return Optional.of(
        new LivePublishing(
            plan.liveLoad(topicPath()),
            spec.out().resolve(RunFiles.PUBLISHER_LIVE),
            true,
            plan.bigQueryEmulatorArgs().isPresent()));
  }

  @Override
  public Optional<MaxRateSpec> search() {
    return Optional.ofNullable(spec.findMaxRate());
  }

  @Override
  public String jobsEnd() {
    return spec.searches()
        ? "once the search has ended, close every consumer's stdin (each writes its results and"
            + " exits)"
        : "every consumer stops by itself once it has accounted for every message (at most"
            + " --timeout "
            + spec.timeoutSeconds()
            + " s)";
  }

  @Override
  public List<String> writes() {
    return List.of(RunFiles.REPORT, RunFiles.SUMMARY, RunFiles.RESULTS);
  }

  /** --kill-consumer-at's checkpoints are kept only while the round runs. */
  @Override
  public void consumersStopped() throws IOException {
    OutDirectory.deleteTree(spec.out().resolve("checkpoints"));
  }

  /** The round's topic as its publisher's result names it. */
  String topicPath() {
    return source.topicPath();
  }

  /** Senders to the round's topic, which every job reads. */
  EventSender.Opener roundTopic(LocalStack stack) {
    return () -> source.sender(stack.host());
  }

  /** Senders to topic {@code name}, made now, which no job reads. */
  EventSender.Opener unreadTopic(String host, String name) throws Exception {
    return source.unreadTopic(host, name);
  }

  /** The round's events, as its publishers and its BigQuery generate them. */
  TaxiRideGenerator generator() {
    return new TaxiRideGenerator(spec.seed(), spec.messageSize(), spec.messageFormat());
  }
}
