package dev.ingestbench.harness.staged;

import dev.ingestbench.bigquery.BigQueryEmulatorCommand;
import dev.ingestbench.contracts.ProcessCpuColumns;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.job.JobSink;
import dev.ingestbench.events.MessageFormat;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.harness.flink.PipelineRunner;
import dev.ingestbench.harness.source.LiveMessages;
import dev.ingestbench.harness.source.SourceFeed;
import dev.ingestbench.harness.spec.ChildFlags;
import dev.ingestbench.harness.spec.ScenarioLimits;
import dev.ingestbench.harness.stack.LocalStack;
import dev.ingestbench.publisher.PublishSettings;
import dev.ingestbench.publisher.PublisherPipeline;
import dev.ingestbench.scenario.ScenarioPlan;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a local scenario's segments are made of ({@link SegmentShape}): the shared processes' flags,
 * the BigQuery emulator's (with the scenario's limits) and the backlog publisher's, checked by each
 * process's own validation when built, so a bad scenario fails before anything starts; the source
 * made ready by {@link ScenarioSource}; accounts sampled from the BigQuery emulator; live messages
 * from this JVM ({@link LiveMessages}) from the segment's start.
 */
final class LocalServices implements SegmentShape {
  private static final String UNSTARTED_HOST = "127.0.0.1:1";

  /**
   * The seed a scenario's events are generated with (its publishers' default {@code --seed}, and
   * the feeds'): the BigQuery emulator checks every row's content against it.
   */
  static final long EVENT_SEED = 1;

  private final ScenarioPlan plan;
  private final ScenarioSource source;

  /** The jobs' consumers: where each logs. */
  private final ConsumerPlan consumers;

  private final RunDirectory dir;

  /**
   * Where the jobs' pipelines run: embedded Flink in each job's JVM, or --target flink's cluster.
   */
  private final PipelineRunner runner;

  LocalServices(
      ScenarioPlan plan,
      ScenarioSource source,
      ConsumerPlan consumers,
      RunDirectory dir,
      PipelineRunner runner) {
    this.plan = plan;
    this.consumers = consumers;
    this.source = source;
    this.dir = dir;
    this.runner = runner;
    Path unstarted = Path.of("unstarted");
    check("limits", () -> BigQueryEmulatorCommand.settingsOf(bigQueryEmulatorArgs(unstarted)));
    if (plan.backlog() > 0) {
      check(
          "publish",
          () ->
              PublishSettings.from(
                  PublisherPipeline.parse(
                      backlogPublisherArgs(UNSTARTED_HOST, unstarted).toArray(new String[0]))));
    }
  }

  @Override
  public String voice() {
    return "run";
  }

  /** A resumed run gets new servers: its topic is published again into the new segment. */
  @Override
  public LocalStack.Spec stack(Path segment) {
    return new LocalStack.Spec(segment, "run", runner, source, bigQueryEmulatorArgs(segment));
  }

  @Override
  public void prepare(String host) throws IOException {
    source.prepare(host);
  }

  @Override
  public SegmentFaults faults(SegmentFaults.Jobs jobs) {
    return new SegmentFaults(
        jobs, RunLog.lines("run"), "run", name -> "job " + name + "'s consumer", true);
  }

  @Override
  public ScenarioSource source() {
    return source;
  }

  /** A scaled-down backlog is fed for as long as the jobs run (it would be read in seconds). */
  @Override
  public OptionalLong feedsUpTo() {
    return plan.fedLocally() ? OptionalLong.of(Long.MAX_VALUE) : OptionalLong.empty();
  }

  /** Each job is fed by what its sink says it accounted for (in-process sinks too). */
  @Override
  public SourceFeed feed(LocalStack stack, Path segment) throws Exception {
    return source.feed(
        stack.host(),
        sinks(stack, segment)::status,
        stack.cpu(),
        EVENT_SEED,
        feedsUpTo().getAsLong(),
        RunLog.lines("run"));
  }

  @Override
  public long backlog() {
    return plan.backlog();
  }

  /** Where the jobs of {@code segment} write. */
  private JobSinks sinks(LocalStack stack, Path segment) {
    return new JobSinks(
        stack.bigQueryRest(), inProcess(segment), job -> consumers.log(job, segment));
  }

  /** Each job that writes in-process, to its consumer's directory in {@code segment}. */
  private Map<String, Path> inProcess(Path segment) {
    Map<String, Path> dirs = new LinkedHashMap<>();
    plan.jobs()
        .forEach(
            (job, config) -> {
              if (config.sink() == JobSink.IN_PROCESS) {
                dirs.put(job, ScenarioConsumers.directory(segment, job));
              }
            });
    return dirs;
  }

  @Override
  public SinkAccounts accounts(LocalStack stack, Path segment, LocalJobs jobs) throws IOException {
    return SinkAccounts.sampled(
        plan, source, stack.host(), sinks(stack, segment), dir.samplesWriter(), segment);
  }

  @Override
  public SegmentPublishing publishing(LocalStack stack, Path segment, LocalJobs jobs)
      throws IOException {
    Optional<LivePublishing> live = live(segment);
    if (live.isEmpty()) {
      return null;
    }
    RunLog.say(
        "Publishing %,d live messages at %,.0f msg/s while the stages run",
        plan.liveMessages(), plan.rate());
    stack.cpu().watch(ProcessCpuColumns.SELF_PUBLISHING_LIVE, ProcessHandle.current().pid());
    return new ScenarioLiveMessages(liveMessages(stack.host(), live.get()), plan.rate());
  }

  /**
   * Starts publishing the plan's live messages from this JVM. A scenario measures its jobs' rates,
   * not their latency against a schedule: no schedule goes to the BigQuery emulator.
   */
  private LiveMessages liveMessages(String host, LivePublishing live) throws IOException {
    TaxiRideGenerator generator =
        new TaxiRideGenerator(
            EVENT_SEED,
            plan.messageSize(),
            MessageFormat.fromFlag("publish.message_format", plan.messageFormat()));
    return new LiveMessages(
        source.sender(host), // last: nothing that can fail comes after it
        generator,
        step -> {},
        live.load(),
        live.result(),
        null,
        RunLog.lines("run"));
  }

  /** From the segment's start, at the scenario's rate; no schedule told to the sink. */
  @Override
  public Optional<LivePublishing> live(Path segment) {
    if (plan.liveMessages() == 0) {
      return Optional.empty();
    }
    return Optional.of(
        new LivePublishing(
            new LiveMessages.Load(
                plan.scenario().source().topic(),
                plan.messageSize(),
                plan.backlog(),
                plan.liveMessages(),
                plan.rate(),
                null),
            segment.resolve(RunFiles.PUBLISHER_LIVE),
            false,
            false));
  }

  @Override
  public String jobsEnd() {
    return "stop every job";
  }

  @Override
  public List<String> writes() {
    return List.of(RunFiles.REPORT, RunFiles.RESULTS);
  }

  /** The BigQuery emulator's flags: the scenario's limits, its files in the segment. */
  List<String> bigQueryEmulatorArgs(Path segment) {
    return ChildFlags.bigQueryEmulator(
        segment, ScenarioLimits.of(plan.scenario().limits()), null, null, EVENT_SEED);
  }

  /** The backlog's publisher: as fast as it can, when a segment opens. */
  @Override
  public List<String> backlogPublisherArgs(String host, Path segment) {
    return source
        .publisher(host)
        .events(
            LocalJobs.PROJECT, plan.messageFormat(), 0, plan.backlog(), plan.messageSize(), null)
        .result(segment.resolve(RunFiles.PUBLISHER_BACKLOG), null)
        .build();
  }

  private static void check(String key, Runnable validation) {
    try {
      validation.run();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key + ": cannot run locally: " + e.getMessage(), e);
    }
  }
}
