package dev.ingestbench.harness.round;

import dev.ingestbench.bigquery.BigQueryEmulatorCommand;
import dev.ingestbench.consumer.ConsumerConfig;
import dev.ingestbench.consumer.local.LocalConsumer;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.job.JobSink;
import dev.ingestbench.harness.process.BigQueryEmulatorProcess;
import dev.ingestbench.harness.source.LiveMessages;
import dev.ingestbench.harness.spec.ChildFlags;
import dev.ingestbench.harness.spec.ConsumerSpec;
import dev.ingestbench.harness.spec.JobLabels;
import dev.ingestbench.harness.spec.MaxRateSpec;
import dev.ingestbench.harness.spec.SettingFlag;
import dev.ingestbench.harness.stack.LocalStack;
import dev.ingestbench.harness.staged.ConsumerPlan;
import dev.ingestbench.harness.staged.LocalJobs;
import dev.ingestbench.harness.staged.ScenarioSource;
import dev.ingestbench.publisher.PublishSettings;
import dev.ingestbench.publisher.PublisherPipeline;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.scenario.StageKind.MaxRateSearch;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The flags of every process a round starts, built from its {@link RoundSpec} and validated
 * in-process by the same code each process runs, so a bad combination fails before anything starts,
 * with the round's flag names in the message.
 */
public final class RoundPlan implements ConsumerPlan {
  static final String PROJECT = LocalStack.PROJECT;
  static final String TOPIC = "taxi-rides";
  static final String SUBSCRIPTION = "taxi-rides-round";

  /** Stands in for the emulator's address while validating: parsing flags contacts nothing. */
  private static final String UNSTARTED_HOST = "127.0.0.1:1";

  /** Stands in for the BigQuery emulator's addresses while validating. */
  private static final BigQueryEmulatorProcess.Address UNSTARTED_BIGQUERY =
      new BigQueryEmulatorProcess.Address("127.0.0.1:1", "http://127.0.0.1:1");

  private final RoundSpec spec;

  /**
   * This round's id, in every file its processes write: the analysis refuses a directory whose
   * files name different rounds.
   */
  final String runId =
      "round-"
          + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
              .withZone(ZoneOffset.UTC)
              .format(Instant.now())
          + "-"
          + String.format("%06x", new SecureRandom().nextInt(1 << 24));

  /** The consumer's configuration, exactly as the consumer JVM will compute it. */
  final ConsumerConfig consumer;

  /** The round as the one-stage scenario it runs ({@link OneStage}). */
  private final ScenarioPlan stages;

  /** Where its jobs read: the round's topic, its subscriptions or consumer groups. */
  private final ScenarioSource source;

  public RoundPlan(RoundSpec spec) {
    this.spec = spec;
    // Reads only what this plan derives from spec (jobs, subscriptions, counts, timeout).
    this.stages = OneStage.plan(spec, this);
    this.source = ScenarioSource.of(stages);
    bigQueryEmulatorArgs()
        .ifPresent(
            emulator ->
                validate(
                    "BigQuery emulator",
                    emulator,
                    args -> BigQueryEmulatorCommand.settingsOf(List.of(args))));
    this.consumer =
        validate(
            "consumer",
            LocalJobs.args(consumer(1), UNSTARTED_HOST, UNSTARTED_BIGQUERY, Optional.empty(), null),
            args -> ConsumerConfig.from(LocalConsumer.parse(args)));
    long backlog = backlogMessages();
    if (backlog > 0) {
      validate(
          "publisher",
          backlogPublisherArgs(UNSTARTED_HOST),
          args -> PublishSettings.from(PublisherPipeline.parse(args)));
    }
  }

  /** Where the round's jobs read. */
  ScenarioSource source() {
    return source;
  }

  /** The round as the one-stage scenario it runs: its stage, its jobs, its source. */
  public ScenarioPlan stages() {
    return stages;
  }

  /** Messages published before the consumers start; none when the round searches. */
  long backlogMessages() {
    return spec.searches() ? 0 : spec.backlogMessages();
  }

  /** Messages published at --live-rate once the backlog is drained; none when it searches. */
  long liveMessages() {
    return spec.searches() ? 0 : spec.liveMessages();
  }

  /**
   * How long the consumers may run: --timeout, and with --find-max-rate also the longest the search
   * can take (every probe, each followed by the longest catch-up).
   */
  long consumerTimeoutSeconds() {
    if (!spec.searches()) {
      return spec.timeoutSeconds();
    }
    MaxRateSpec s = spec.findMaxRate();
    long perProbe =
        MaxRateSearch.SETTLE.toSeconds()
            + s.window().toSeconds()
            + s.latencySlo().toSeconds()
            + MaxRateSearch.RECOVER_MAX.toSeconds();
    return spec.timeoutSeconds() + MaxRateSearch.WARM_UP_MAX.toSeconds() + s.maxProbes() * perProbe;
  }

  /** The published event indexes the local BigQuery and the consumers check against; 0: open. */
  private long publishedRange() {
    return spec.searches() ? 0 : spec.messages();
  }

  /** The backlog's publisher: as fast as it can, before any consumer starts. */
  public List<String> backlogPublisherArgs(String host) {
    ChildFlags.Publisher to = source.publisher(host);
    return to.events(
            PROJECT,
            spec.messageFormat().flag(),
            0,
            backlogMessages(),
            spec.messageSize(),
            spec.seed())
        .result(spec.out().resolve(RunFiles.PUBLISHER_BACKLOG), runId)
        .build();
  }

  /** The live messages, to {@code topic}: after the backlog's, at --live-rate or its profile. */
  public LiveMessages.Load liveLoad(String topic) {
    return new LiveMessages.Load(
        topic,
        spec.messageSize(),
        backlogMessages(),
        liveMessages(),
        spec.liveRate(),
        spec.liveProfile());
  }

  /** Every job's settings as the consumer computes them: the labels of its result records. */
  public Map<String, Map<String, String>> labels() {
    Map<String, String> labels = JobLabels.of(consumer, spec.messageSize(), null, null);
    Map<String, Map<String, String>> all = new LinkedHashMap<>();
    for (int j = 1; j <= spec.jobs(); j++) {
      all.put(jobName(j), labels);
    }
    return all;
  }

  /** Job {@code j}'s name (1-based): what its client sends in the trace id, and its directory. */
  static String jobName(int j) {
    return "job-" + j;
  }

  /** The number of job {@code job} (a name {@link #jobName} gave). */
  int jobNumber(String job) {
    for (int j = 1; j <= spec.jobs(); j++) {
      if (jobName(j).equals(job)) {
        return j;
      }
    }
    throw new IllegalArgumentException("a round has no job " + job);
  }

  /** The round's consumers ignore the segment: their files are at the top of --out. */
  @Override
  public ConsumerSpec consumer(String job, Path segment) {
    return consumer(jobNumber(job));
  }

  /** Job J's consumer is process {@code consumer} in a one-job round, else {@code consumer-J}. */
  @Override
  public String voice() {
    return "round";
  }

  @Override
  public String processName(String job) {
    return spec.jobs() == 1 ? "consumer" : "consumer-" + jobNumber(job);
  }

  @Override
  public Path logs(Path segment) {
    return spec.out();
  }

  /** Where job {@code j} writes its results: the round's directory for a one-job round. */
  Path jobDirectory(int j) {
    return spec.jobs() == 1 ? spec.out() : spec.out().resolve(RunFiles.jobDirectory(jobName(j)));
  }

  /** Where job {@code j}'s Flink checkpoints go when the round kills and restarts consumers. */
  Path checkpointDirectory(int j) {
    return spec.out().toAbsolutePath().resolve("checkpoints").resolve(jobName(j));
  }

  /** One subscription per job, so every job reads every message. */
  List<String> subscriptions() {
    List<String> names = new ArrayList<>();
    for (int j = 1; j <= spec.jobs(); j++) {
      names.add(spec.jobs() == 1 ? SUBSCRIPTION : SUBSCRIPTION + "-" + j);
    }
    return names;
  }

  /**
   * The BigQuery emulator's flags: free ports, the round's directory, limits and faults; none when
   * the jobs write in-process, where no emulator process runs.
   */
  public Optional<List<String>> bigQueryEmulatorArgs() {
    if (spec.sink() == JobSink.IN_PROCESS) {
      return Optional.empty();
    }
    return Optional.of(
        ChildFlags.bigQueryEmulator(
            spec.out(), spec.emulatorLimits(), runId, publishedRange(), spec.seed()));
  }

  /** Each job that writes in-process, to its consumer's directory (none with the emulator). */
  Map<String, Path> inProcessSinks() {
    Map<String, Path> dirs = new LinkedHashMap<>();
    if (spec.sink() == JobSink.IN_PROCESS) {
      for (int j = 1; j <= spec.jobs(); j++) {
        dirs.put(jobName(j), jobDirectory(j));
      }
    }
    return dirs;
  }

  /** Job {@code j}'s consumer (1-based) as the round runs it. */
  ConsumerSpec consumer(int j) {
    return new ConsumerSpec(
        spec.runner().beamRunner(),
        jobName(j),
        source.reads(jobName(j)).withPullBatchSize(spec.pullBatchSize()),
        spec.messageFormat().flag(),
        spec.job(),
        new ConsumerSpec.RunTag(runId, publishedRange()),
        publishedRange(),
        consumerTimeoutSeconds(),
        jobDirectory(j),
        // If the round's JVM dies (even by SIGKILL, which runs no hook), its consumers stop too.
        true,
        // While it searches, a consumer reads until the search has ended and it has written
        // everything: then the round closes its standard input (as --savepoint-at does, a line
        // saying how first). Else it stops at its count.
        spec.searches() || spec.savepointAt() != null,
        spec.sink(),
        spec.seed(),
        // Checkpoints (and savepoints) where the round can find them after a restart, kept until
        // it ends.
        spec.restartsConsumers() ? checkpointDirectory(j) : null,
        spec.runner().jobParallelism(),
        spec.consumerArgs());
  }

  private interface Check<T> {
    T apply(String[] args);
  }

  /** Runs {@code check}; its error names the round's flags where a round flag set the value. */
  private <T> T validate(String process, List<String> args, Check<T> check) {
    try {
      return check.apply(args.toArray(new String[0]));
    } catch (IllegalArgumentException e) {
      String message = e.getMessage() == null ? e.toString() : e.getMessage();
      for (SettingFlag setting : SettingFlag.values()) {
        if (spec.consumerArgs().stream().noneMatch(setting::setBy)) {
          message = setting.inRoundWords(message);
        }
      }
      throw new IllegalArgumentException(
          "the " + process + " cannot run with these flags: " + message, e);
    }
  }
}
