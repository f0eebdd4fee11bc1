package dev.ingestbench.cli;

import dev.ingestbench.bigquery.EmulatorLimitOptions;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.RateProfile;
import dev.ingestbench.contracts.job.JobSink;
import dev.ingestbench.contracts.job.RowEncoding;
import dev.ingestbench.contracts.job.RowFormat;
import dev.ingestbench.contracts.job.TableCreation;
import dev.ingestbench.contracts.job.TableSkew;
import dev.ingestbench.contracts.job.WriteMethod;
import dev.ingestbench.events.MessageFormat;
import dev.ingestbench.harness.flink.PipelineRunner;
import dev.ingestbench.harness.round.RoundDryRun;
import dev.ingestbench.harness.round.RoundFlags;
import dev.ingestbench.harness.round.RoundRunner;
import dev.ingestbench.harness.round.RoundSpec;
import dev.ingestbench.harness.spec.JobSettings;
import dev.ingestbench.harness.spec.MaxRateSpec;
import dev.ingestbench.harness.spec.SettingFlag;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ingestbench round}: a whole local round in one command. */
@Command(
    name = "round",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Run a whole local round: start the Pub/Sub and BigQuery emulators, publish a backlog,"
          + " consume it (J jobs with --jobs) through the Storage Write API client into the local"
          + " BigQuery while more messages arrive at a fixed rate, stop everything, and write"
          + " report.md, summary.json, write_api_timeline.csv, concurrent_connections.csv and"
          + " charts to --out.",
      "",
      "  ingestbench round                     # ~1 minute, defaults below",
      "  ingestbench round --messages 1000000 --write-method at-least-once \\",
      "      --destination-tables 4",
      "  ingestbench round --source kafka --message-format avro --destination-tables 4 \\",
      "      --row-format typed --row-encoding proto --write-method at-least-once --connection-pool",
      "  ingestbench round --find-max-rate       # the highest live rate sustained, ~7 minutes",
      ""
    })
public final class RoundCommand implements Callable<Integer> {
  @Option(
      names = RoundFlags.OUT,
      paramLabel = "DIR",
      description = "Output directory (default: runs/round-<time>).")
  Path out;

  @Option(
      names = "--dry-run",
      description =
          "Print every step of the round and every process's command line, as the round would run them; start nothing, write nothing.")
  boolean dryRun;

  @Option(
      names = RoundFlags.FORCE,
      description =
          "Run into an --out that holds an earlier round's files, replacing them (without it such an --out is refused, so a crashed round never reports an earlier round's numbers).")
  boolean force;

  @Option(
      names = RoundFlags.MESSAGES,
      paramLabel = "N",
      defaultValue = "300000",
      description = "Messages published in all (default: ${DEFAULT-VALUE}).")
  long messages;

  /**
   * Without it, a third of --messages, at most 100,000: the default round's 100,000 of 300,000, and
   * a {@code --messages 20000} that is a round as it stands rather than a refusal over a flag the
   * user never gave.
   */
  @Option(
      names = RoundFlags.LIVE_MESSAGES,
      paramLabel = "N",
      description =
          "Of those, published at --live-rate once the consumer has drained the backlog (they measure latency); the rest are the backlog, published first (default: a third of --messages, at most 100,000; 0 with --feed).")
  Long liveMessages;

  private static final long DEFAULT_LIVE_MESSAGES_CAP = 100_000;

  @Option(
      names = SettingFlag.Round.LIVE_RATE,
      paramLabel = "MSG/S",
      defaultValue = "10000",
      description = "Publish rate of the live messages (default: ${DEFAULT-VALUE}).")
  double liveRate;

  @Option(
      names = RoundFlags.LIVE_PROFILE,
      paramLabel = "STEPS",
      description =
          "Step the live rate: MULTIPLIERx:DURATION of --live-rate, comma-separated, e.g."
              + " 1x:60s,2x:60s,4x:30s,1x:60s; the live messages are what it sends (--messages must"
              + " hold them; the rest is the backlog). The report has each step's throughput,"
              + " backlog and latency.")
  String liveProfile;

  @Option(
      names = RoundFlags.SOURCE,
      defaultValue = "pubsub",
      description =
          "pubsub (the local Pub/Sub emulator) or kafka (a local Kafka broker, KRaft, in its own JVM) (default: ${DEFAULT-VALUE}).")
  String source;

  @Option(
      names = RoundFlags.PARTITIONS,
      paramLabel = "N",
      description =
          "With --source kafka: partitions of the topic (default: 32, as in the reference rounds).")
  Integer partitions;

  @Option(
      names = RoundFlags.CONSUMER_GROUPS,
      description =
          "With --source kafka and --jobs > 1: separate (a consumer group per job, as the reference's round 6) or shared (every job in one group, the production hypothesis) (default: separate).")
  String consumerGroups;

  @Option(
      names = SettingFlag.Round.MESSAGE_FORMAT,
      defaultValue = "json",
      description =
          "json or avro (Avro binary of taxi_ride.avsc, ~88 B) (default: ${DEFAULT-VALUE}).")
  String messageFormat;

  @Option(
      names = SettingFlag.Round.MESSAGE_SIZE,
      paramLabel = "BYTES",
      description =
          "Message size; larger sizes pad, e.g. 10000 pads to ~10 KB (default: 500 for json, 88 for avro).")
  Integer messageSize;

  @Option(
      names = SettingFlag.Round.WRITE_METHOD,
      defaultValue = "exactly-once",
      converter = JobSettingConverters.WriteMethods.class,
      description =
          "exactly-once (STORAGE_WRITE_API) or at-least-once (STORAGE_API_AT_LEAST_ONCE), any of those spellings (default: exactly-once).")
  WriteMethod writeMethod;

  @Option(
      names = SettingFlag.Round.ROW_FORMAT,
      defaultValue = "json-column",
      converter = JobSettingConverters.RowFormats.class,
      description = "json-column or typed (default: json-column).")
  RowFormat rowFormat;

  @Option(
      names = SettingFlag.Round.ROW_ENCODING,
      defaultValue = "tablerow",
      converter = JobSettingConverters.RowEncodings.class,
      description = "tablerow, beam-row or proto: how rows reach BigQueryIO (default: tablerow).")
  RowEncoding rowEncoding;

  @Option(
      names = SettingFlag.Round.DESTINATION_TABLES,
      paramLabel = "N",
      defaultValue = "1",
      description =
          "Dynamic destinations: spread rows over N tables, 1 to 10,000 (default: ${DEFAULT-VALUE}).")
  int destinationTables;

  @Option(
      names = SettingFlag.Round.TABLE_SKEW,
      paramLabel = "SKEW",
      defaultValue = "uniform",
      converter = JobSettingConverters.TableSkews.class,
      description =
          "How rows spread over --destination-tables: uniform, or zipf:S (table k gets a share"
              + " proportional to 1/(k+1)^S: a few hot tables and a long tail; S above 0, at most"
              + " 10) (default: ${DEFAULT-VALUE}).")
  TableSkew tableSkew;

  @Option(
      names = SettingFlag.Round.CREATE_TABLES,
      paramLabel = "WHEN",
      defaultValue = "if-needed",
      converter = JobSettingConverters.TableCreations.class,
      description =
          "When the destination tables are made: if-needed (Beam's CREATE_IF_NEEDED, as each is"
              + " first written) or ahead (all before the consumer's pipeline starts, then"
              + " CREATE_NEVER) (default: ${DEFAULT-VALUE}).")
  TableCreation tableCreation;

  @Option(
      names = SettingFlag.Round.CONNECTION_POOL,
      description = "Beam's --useStorageApiConnectionPool (at-least-once only).")
  boolean connectionPool;

  @Option(
      names = SettingFlag.Round.MAX_POOL_CONNECTIONS,
      paramLabel = "N",
      description =
          "Beam's --maxConnectionPoolConnections: the pool's most connections per worker; Beam's"
              + " documentation asks for at least the number of tables (default: Beam's, 20).")
  Integer maxPoolConnections;

  @Option(
      names = SettingFlag.Round.STREAMS,
      paramLabel = "N",
      description = "Beam's --numStorageWriteApiStreams (exactly-once).")
  Integer streams;

  @Option(
      names = SettingFlag.Round.TRIGGERING_FREQUENCY,
      paramLabel = "SECONDS",
      description = "Beam's --storageWriteApiTriggeringFrequencySec (exactly-once; default 1).")
  Integer triggeringFrequency;

  @Option(
      names = RoundFlags.JOBS,
      paramLabel = "J",
      defaultValue = "1",
      description =
          "Consumer jobs, each a JVM on its own subscription (every job reads every message), all writing the same table(s) through one BigQuery emulator (default: ${DEFAULT-VALUE}).")
  int jobs;

  @Option(
      names = RoundFlags.SINK,
      defaultValue = "emulator",
      description =
          "emulator: one BigQuery emulator process shared by every job, reached through the official client over gRPC; in-process: the emulator inside the consumer's JVM (one job only) (default: ${DEFAULT-VALUE}).")
  String sink;

  @Option(
      names = RoundFlags.FEED,
      description =
          "Publish the backlog in tranches while the jobs read it, topped up to the feed's high mark whenever half of it is read (each job its own Pub/Sub topic, 4,000-40,000 messages waiting; the Kafka topic up to 200 MB ahead of the fastest job; --dry-run prints the marks), instead of all of it before they start: the Pub/Sub emulator's Pull slows as what a subscription holds grows. Backlog only (--live-messages defaults to 0).")
  boolean feed;

  /**
   * The BigQuery emulator's limits and faults: the same options as {@code ingestbench
   * bigquery-emulator}.
   */
  @Mixin EmulatorLimitOptions emulatorLimits = new EmulatorLimitOptions();

  @Mixin ConsumerRestartOptions restarts = new ConsumerRestartOptions();

  @Mixin RoundRunnerOptions runner = new RoundRunnerOptions();

  @Mixin MaxRateOptions maxRate = new MaxRateOptions();

  @Option(
      names = SettingFlag.Round.PULL_BATCH_SIZE,
      paramLabel = "N",
      defaultValue = "" + RoundSpec.DEFAULT_PULL_BATCH_SIZE,
      description = "Messages per Pull from the emulator (default: ${DEFAULT-VALUE}).")
  int pullBatchSize;

  @Option(
      names = RoundFlags.SEED,
      defaultValue = "" + RoundSpec.DEFAULT_SEED,
      description = "Event generator seed (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = RoundFlags.HEAP,
      defaultValue = "2g",
      description = "Heap cap of the publisher and consumer JVMs (default: ${DEFAULT-VALUE}).")
  String heap;

  @Option(
      names = RoundFlags.MAX_DEAD_LETTERS,
      paramLabel = "N",
      defaultValue = "0",
      description =
          "Fail the round (exit 1) when more messages than this were dead-lettered (default: ${DEFAULT-VALUE}: a round publishes only valid messages, so any dead letter is a finding).")
  long maxDeadLetters;

  @Option(
      names = RoundFlags.TIMEOUT,
      paramLabel = "SECONDS",
      defaultValue = "" + RoundSpec.DEFAULT_TIMEOUT_SECONDS,
      description = "Give up on the consumer after this long (default: ${DEFAULT-VALUE}).")
  long timeoutSeconds;

  @Option(
      names = RoundFlags.CONSUMER_ARG,
      paramLabel = "--FLAG=VALUE",
      parameterConsumer = VerbatimValue.class,
      description = "Extra Beam flag for the consumer; repeatable.")
  List<String> consumerArgs = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    // Every flag of every process is checked here, before anything starts.
    RoundSpec round = spec();
    if (dryRun) {
      new RoundDryRun(round).print(System.out);
      return ExitCodes.OK;
    }
    return new RoundRunner(round).measuringTheMachine().run();
  }

  /**
   * The round these flags describe, validated; a bad flag throws IllegalArgumentException naming
   * it.
   */
  public RoundSpec spec() {
    RoundSpec.Source kind =
        switch (source) {
          case "pubsub" -> RoundSpec.Source.PUBSUB;
          case "kafka" -> RoundSpec.Source.KAFKA;
          default ->
              throw new IllegalArgumentException(
                  "--source " + source + " is not known; use pubsub or kafka");
        };
    if (kind != RoundSpec.Source.KAFKA && (partitions != null || consumerGroups != null)) {
      throw new IllegalArgumentException(
          "--partitions and --consumer-groups are for --source kafka; add it, or drop them");
    }
    String groups = consumerGroups == null ? "separate" : consumerGroups;
    if (!groups.equals("separate") && !groups.equals("shared")) {
      throw new IllegalArgumentException(
          "--consumer-groups " + consumerGroups + " is not known; use separate or shared");
    }
    JobSink to = JobSink.fromFlag("--sink", sink);
    MessageFormat format = MessageFormat.fromFlag(SettingFlag.Round.MESSAGE_FORMAT, messageFormat);
    PipelineRunner pipelineRunner = runner.pipelineRunner();
    MaxRateSpec search = maxRate.spec();
    if (search != null) {
      refuseWithSearch("--messages", "--live-messages", SettingFlag.Round.LIVE_RATE);
    }
    RateProfile profile =
        liveProfile == null ? null : RateProfile.parse("--live-profile", liveProfile);
    if (profile != null && given("--live-messages")) {
      throw new IllegalArgumentException(
          "--live-messages does not apply to --live-profile: the profile's steps at --live-rate"
              + " say how many live messages there are; drop --live-messages");
    }
    Path dir =
        out != null
            ? out
            : Path.of(
                "runs",
                "round-"
                    + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    return new RoundSpec(
            dir,
            force,
            messages,
            profile != null ? profile.messages(liveRate) : liveMessages(),
            liveRate,
            kind,
            partitions == null ? RoundSpec.DEFAULT_PARTITIONS : partitions,
            groups.equals("shared"),
            format,
            messageSize != null ? messageSize : RoundSpec.defaultMessageSize(format),
            seed,
            new JobSettings(
                writeMethod,
                rowFormat,
                rowEncoding,
                destinationTables,
                tableSkew,
                tableCreation,
                connectionPool,
                maxPoolConnections,
                streams,
                triggeringFrequency),
            jobs,
            to,
            emulatorLimits,
            restarts.killConsumerAt,
            restarts.crashEvery,
            pipelineRunner,
            pullBatchSize,
            heap,
            maxDeadLetters,
            timeoutSeconds,
            consumerArgs,
            search,
            profile,
            feed,
            restarts.savepointAt)
        .validate();
  }

  @Spec CommandLine.Model.CommandSpec commandSpec;

  /**
   * --live-messages as given, or its default: a third of --messages, at most 100,000 (none with
   * --feed, which feeds a backlog).
   */
  private long liveMessages() {
    if (liveMessages != null) {
      return liveMessages;
    }
    return feed ? 0 : Math.min(DEFAULT_LIVE_MESSAGES_CAP, Math.max(0, messages) / 3);
  }

  /** Whether the user gave {@code flag} (a default is not given). */
  private boolean given(String flag) {
    return commandSpec != null && commandSpec.commandLine().getParseResult().hasMatchedOption(flag);
  }

  /** Flags a max-rate search sets itself: given with it, they would be silently ignored. */
  private void refuseWithSearch(String... flags) {
    for (String flag : flags) {
      if (given(flag)) {
        throw new IllegalArgumentException(
            flag
                + " does not apply to --find-max-rate: the search publishes at the rates it probes,"
                + " as many messages as they take; drop "
                + flag);
      }
    }
  }
}
