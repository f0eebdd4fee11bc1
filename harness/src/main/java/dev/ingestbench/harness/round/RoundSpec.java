package dev.ingestbench.harness.round;

import dev.ingestbench.bigquery.EmulatorLimitOptions;
import dev.ingestbench.contracts.RateProfile;
import dev.ingestbench.contracts.job.JobSink;
import dev.ingestbench.contracts.job.TableRouting;
import dev.ingestbench.events.MessageFormat;
import dev.ingestbench.harness.flink.PipelineRunner;
import dev.ingestbench.harness.spec.JobSettings;
import dev.ingestbench.harness.spec.JvmHeap;
import dev.ingestbench.harness.spec.MaxRateSpec;
import dev.ingestbench.harness.spec.OutDirectory;
import dev.ingestbench.harness.spec.ScenarioLimits;
import dev.ingestbench.harness.spec.SettingFlag;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.scenario.StageFaults;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One local round, typed: what {@code ingestbench round}'s flags say, and what a scenario's
 * unordered iteration builds directly (no command line in between). {@link #validate} is every
 * check a round makes before anything starts; {@link RoundPlan} turns a valid spec into each
 * process's flags.
 *
 * @param out the round's directory
 * @param force write into a directory that holds files already
 * @param messages published in all, backlog then live
 * @param liveMessages of {@code messages}, published at {@code liveRate} once the backlog is
 *     drained
 * @param partitions the Kafka topic's partitions (unused for Pub/Sub)
 * @param sharedConsumerGroup Kafka: every job in one consumer group
 * @param messageSize bytes per message
 * @param job how every job of the round writes
 * @param jobs consumer jobs, each in its own JVM with its own subscription
 * @param emulatorLimits the BigQuery emulator's limits and faults (only those given)
 * @param killConsumerAt seconds after which every consumer is killed and restored, or null
 * @param crashEverySeconds kill and restore every consumer again and again, this many seconds after
 *     each of its lives started writing, or null
 * @param runner where each job's pipeline runs: in its consumer's JVM ({@code FlinkRunner}, the
 *     default, or {@code DirectRunner}), or on a Flink cluster the consumer submits it to
 * @param pullBatchSize messages per Pull from the Pub/Sub emulator
 * @param heap heap cap of the publisher and consumer JVMs ({@code 2g})
 * @param maxDeadLetters dead letters a job may write before the round fails
 * @param timeoutSeconds how long the round waits for its consumers
 * @param consumerArgs extra Beam flags for every consumer
 * @param findMaxRate probe live rates for the highest one every job sustains (instead of the
 *     backlog and the live messages), or null
 * @param liveProfile the live rate's steps, or null for one rate
 * @param feed publish the backlog in tranches as the jobs read it (each job its own Pub/Sub topic;
 *     the Kafka topic kept ahead of every job), never more than the feed's high mark waiting,
 *     instead of all of it before the jobs start
 * @param savepointAt seconds after which every consumer is stopped with a Flink savepoint (once it
 *     has written) and started again from it, or null
 */
public record RoundSpec(
    Path out,
    boolean force,
    long messages,
    long liveMessages,
    double liveRate,
    Source source,
    int partitions,
    boolean sharedConsumerGroup,
    MessageFormat messageFormat,
    int messageSize,
    long seed,
    JobSettings job,
    int jobs,
    JobSink sink,
    EmulatorLimitOptions emulatorLimits,
    Long killConsumerAt,
    Long crashEverySeconds,
    PipelineRunner runner,
    int pullBatchSize,
    String heap,
    long maxDeadLetters,
    long timeoutSeconds,
    List<String> consumerArgs,
    MaxRateSpec findMaxRate,
    RateProfile liveProfile,
    boolean feed,
    Long savepointAt) {

  /** Where the messages come from. */
  public enum Source {
    PUBSUB,
    KAFKA;

    public String flag() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  // Defaults of `ingestbench round`, and of a scenario's unordered iterations.
  public static final int DEFAULT_PULL_BATCH_SIZE = 5000;
  public static final long DEFAULT_TIMEOUT_SECONDS = 600;
  public static final long DEFAULT_SEED = 1;
  public static final int DEFAULT_PARTITIONS = ScenarioPlan.DEFAULT_PARTITIONS;

  public RoundSpec {
    Objects.requireNonNull(out, "out");
    consumerArgs = List.copyOf(consumerArgs);
  }

  /**
   * Job {@code job} of a scenario as a round of its own, into {@code out}: an unordered iteration
   * (backlog and rate from the scenario's {@code publish}), or a max-rate stage's search ({@code
   * search} not null). Not yet validated.
   *
   * @param runner where the job's pipeline runs
   */
  public static RoundSpec forScenarioJob(
      ScenarioPlan plan,
      String job,
      Path out,
      String heap,
      PipelineRunner runner,
      MaxRateSpec search) {
    return new RoundSpec(
        out,
        true, // its own directory: a resumed run repeats an unfinished step into it
        plan.messages(),
        plan.liveMessages(),
        plan.liveMessages() > 0 ? plan.rate() : 0,
        plan.kafka() ? Source.KAFKA : Source.PUBSUB,
        plan.partitions(),
        "shared".equals(plan.scenario().source().consumerGroups()),
        MessageFormat.fromFlag("publish.message_format", plan.messageFormat()),
        plan.messageSize(),
        DEFAULT_SEED,
        JobSettings.of(plan.jobs().get(job)),
        1,
        plan.jobs().get(job).resolvedSink(),
        ScenarioLimits.of(plan.scenario().limits()),
        null,
        null,
        runner,
        DEFAULT_PULL_BATCH_SIZE,
        heap,
        plan.maxDeadLetters(),
        DEFAULT_TIMEOUT_SECONDS,
        List.of(),
        search,
        null,
        false,
        null);
  }

  /** The message size a format usually has (a scenario's too): 500 B of JSON, 88 B of Avro. */
  public static int defaultMessageSize(MessageFormat format) {
    return format == MessageFormat.AVRO
        ? ScenarioPlan.DEFAULT_AVRO_MESSAGE_SIZE
        : ScenarioPlan.DEFAULT_MESSAGE_SIZE;
  }

  public boolean kafka() {
    return source == Source.KAFKA;
  }

  /** Messages published before the consumers start. */
  public long backlogMessages() {
    return messages - liveMessages;
  }

  /** The round searches for the highest sustained rate instead of publishing a fixed load. */
  public boolean searches() {
    return findMaxRate != null;
  }

  /** Consumers are stopped and restarted during the round: killed, or stopped with a savepoint. */
  public boolean restartsConsumers() {
    return killsConsumers() || savepointAt != null;
  }

  /** Consumers are killed and restored during the round (once, or again and again). */
  public boolean killsConsumers() {
    return killConsumerAt != null || crashEverySeconds != null;
  }

  /** This round as {@code ingestbench round} flags, for --dry-run and logs ({@link RoundFlags}). */
  public List<String> asRoundFlags() {
    return RoundFlags.of(this);
  }

  /** --feed feeds the backlog alone, from this JVM, as the BigQuery emulator counts it. */
  private void requireFeedable() {
    if (findMaxRate != null) {
      throw new IllegalArgumentException(
          "--feed feeds a backlog; --find-max-rate publishes its own probes: drop --feed");
    }
    if (liveProfile != null) {
      throw new IllegalArgumentException(
          "--feed feeds a backlog, and --live-profile steps live messages: give one of the two");
    }
    if (liveMessages > 0) {
      throw new IllegalArgumentException(
          "--feed feeds the backlog only, and live messages are published apart from it: give"
              + " --live-messages 0, or drop --feed");
    }
    if (sink == JobSink.IN_PROCESS) {
      throw new IllegalArgumentException(
          "--feed tops each job up by what the BigQuery emulator process says it accounted for:"
              + " drop --sink in-process");
    }
  }

  /** --savepoint-at's checks: a Flink consumer whose rows outlive it, and no other restart. */
  private void requireSavable() {
    if (savepointAt < 1) {
      throw new IllegalArgumentException(
          "--savepoint-at " + savepointAt + " must be 1 second or more");
    }
    if (savepointAt >= timeoutSeconds) {
      throw new IllegalArgumentException(
          "--savepoint-at "
              + savepointAt
              + " would come after the round's --timeout "
              + timeoutSeconds
              + ": give an earlier time or a longer --timeout");
    }
    if (killsConsumers()) {
      throw new IllegalArgumentException(
          "--savepoint-at stops the consumers with a savepoint, and --kill-consumer-at and"
              + " --crash-every kill them: give one of the two");
    }
    if (sink == JobSink.IN_PROCESS || !runner.restoresFlinkState()) {
      throw new IllegalArgumentException(
          "--savepoint-at needs --sink emulator and --runner FlinkRunner: the verification must"
              + " outlive the stopped JVMs, and each restart restores a Flink savepoint");
    }
    if (findMaxRate != null) {
      throw new IllegalArgumentException(
          "--savepoint-at stops the consumers of a round that drains, and --find-max-rate probes"
              + " rates: give one of the two");
    }
  }

  /** Every check of the round's own settings; each names the flag and the fix. */
  public RoundSpec validate() {
    requireCounts();
    requireJobs();
    JvmHeap.require(heap);
    OutDirectory.require(out);
    requireFaults();
    requireLiveRate();
    if (findMaxRate != null) {
      requireSearchable();
    }
    if (feed) {
      requireFeedable();
    }
    runner.validate(jobs, "--jobs " + jobs);
    // Last: a search names every flag it cannot run beside, this flag among them.
    if (!runner.consumerJvmRunsPipeline() && killsConsumers()) {
      throw new IllegalArgumentException(
          "--kill-consumer-at and --crash-every kill an embedded Flink's JVM; on a Flink cluster the"
              + " consumer JVM only submits the job: drop them, or drop --runner flink-cluster");
    }
    return this;
  }

  /** --messages, --live-messages, --partitions and --max-dead-letters, each within its bounds. */
  private void requireCounts() {
    if (messages < 1 && findMaxRate == null) {
      throw new IllegalArgumentException("--messages " + messages + " must be 1 or more");
    }
    if (findMaxRate == null && (liveMessages < 0 || liveMessages > messages)) {
      throw new IllegalArgumentException(
          liveProfile != null
              ? String.format(
                  Locale.ROOT,
                  "--live-profile %s at --live-rate %s sends %,d live messages, more than --messages"
                      + " %,d: give --messages %d or more (what is above the profile's is the"
                      + " backlog), or a lower --live-rate",
                  liveProfile,
                  liveRate,
                  liveMessages,
                  messages,
                  liveMessages)
              : "--live-messages "
                  + liveMessages
                  + " must be between 0 and --messages ("
                  + messages
                  + ")");
    }
    if (partitions < 1) {
      throw new IllegalArgumentException("--partitions " + partitions + " must be 1 or more");
    }
    if (maxDeadLetters < 0) {
      throw new IllegalArgumentException(
          "--max-dead-letters " + maxDeadLetters + " must be 0 or more");
    }
  }

  /** --jobs and each job's settings: tables, the connection pool, a sink they can share. */
  private void requireJobs() {
    if (jobs < 1) {
      throw new IllegalArgumentException("--jobs " + jobs + " must be 1 or more");
    }
    if (job.maxPoolConnections() != null
        && (job.maxPoolConnections() < 2 || !job.connectionPool())) {
      throw new IllegalArgumentException(
          SettingFlag.Round.MAX_POOL_CONNECTIONS
              + " "
              + job.maxPoolConnections()
              + (job.maxPoolConnections() < 2
                  ? " must be 2 or more (Beam's pool keeps at least 2), e.g. the number of tables"
                  : " sizes Beam's connection pool: add --connection-pool (at-least-once)"));
    }
    if (job.destinationTables() < 1 || job.destinationTables() > TableRouting.MAX_TABLES) {
      throw new IllegalArgumentException(
          SettingFlag.Round.DESTINATION_TABLES
              + " "
              + TableRouting.outOfRange(job.destinationTables()));
    }
    if (jobs > 1 && sink == JobSink.IN_PROCESS) {
      throw new IllegalArgumentException(
          "--jobs "
              + jobs
              + " needs --sink emulator: jobs in separate JVMs share one BigQuery only through the emulator process");
    }
  }

  /** The kills, crashes and savepoint, and the emulator's limits: each where it can be honoured. */
  private void requireFaults() {
    if (killConsumerAt != null && killConsumerAt < 1) {
      throw new IllegalArgumentException(
          "--kill-consumer-at " + killConsumerAt + " must be 1 second or more");
    }
    if (crashEverySeconds != null && crashEverySeconds < StageFaults.MIN_CRASH_EVERY_SECONDS) {
      throw new IllegalArgumentException(
          "--crash-every "
              + crashEverySeconds
              + " must be "
              + StageFaults.MIN_CRASH_EVERY_SECONDS
              + " seconds or more: each life must have time to restore and complete a checkpoint");
    }
    if (killsConsumers() && (sink == JobSink.IN_PROCESS || !runner.restoresFlinkState())) {
      throw new IllegalArgumentException(
          (killConsumerAt != null ? "--kill-consumer-at" : "--crash-every")
              + " needs --sink emulator and --runner FlinkRunner: the verification must outlive the killed JVMs, and"
              + " each restart restores a Flink checkpoint");
    }
    if (savepointAt != null) {
      requireSavable();
    }
    if (sink == JobSink.IN_PROCESS && !emulatorLimits.asFlags().isEmpty()) {
      throw new IllegalArgumentException(
          "limits and faults (--quota-*, --max-*, --fault) are set on the emulator process: drop --sink in-process");
    }
  }

  /** --live-rate and --live-profile: a rate for the live messages, a profile that sends them. */
  private void requireLiveRate() {
    if (findMaxRate == null && liveMessages > 0 && liveRate <= 0) {
      throw new IllegalArgumentException(
          SettingFlag.Round.LIVE_RATE
              + " "
              + liveRate
              + " must be positive when --live-messages > 0");
    }
    if (liveProfile != null) {
      if (findMaxRate != null) {
        throw new IllegalArgumentException(
            "--live-profile steps a fixed live rate; --find-max-rate searches for one: give one of"
                + " the two");
      }
      if (liveRate <= 0) {
        throw new IllegalArgumentException(
            SettingFlag.Round.LIVE_RATE
                + " "
                + liveRate
                + " must be positive: it is the profile's 1x");
      }
      if (liveMessages != liveProfile.messages(liveRate)) {
        throw new IllegalArgumentException(
            "--live-messages "
                + liveMessages
                + " is not what --live-profile "
                + liveProfile
                + " sends at --live-rate "
                + liveRate
                + " ("
                + liveProfile.messages(liveRate)
                + "): drop --live-messages");
      }
    }
  }

  /** --find-max-rate's settings, and what a search cannot run beside. */
  private void requireSearchable() {
    findMaxRate.validate();
    if (sink == JobSink.IN_PROCESS || !runner.consumerJvmRunsPipeline() || killsConsumers()) {
      throw new IllegalArgumentException(
          "--find-max-rate reads every job's progress and latency from the BigQuery emulator"
              + " process, with embedded Flink: drop --sink in-process, --runner flink-cluster,"
              + " --kill-consumer-at and --crash-every");
    }
    if (kafka() && sharedConsumerGroup && jobs > 1) {
      throw new IllegalArgumentException(
          "--find-max-rate judges each job on every message it publishes, and the jobs of one"
              + " shared consumer group each read only their partitions' share: drop"
              + " --consumer-groups shared, or search with --jobs 1");
    }
  }
}
