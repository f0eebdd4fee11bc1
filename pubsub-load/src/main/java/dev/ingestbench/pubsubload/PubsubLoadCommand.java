package dev.ingestbench.pubsubload;

import dev.ingestbench.contracts.MachineInfo;
import dev.ingestbench.contracts.MainErrors;
import dev.ingestbench.emulator.PubsubEmulator;
import dev.ingestbench.scenario.Durations;
import dev.ingestbench.verification.Finding;
import dev.ingestbench.verification.Verdict;
import dev.ingestbench.verification.VerificationPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code pubsub-load}: how fast one machine publishes and pulls, and with which client settings.
 */
@Command(
    name = "pubsub-load",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Load-test the official Pub/Sub Java client: publisher and subscriber throughput and latency,"
          + " as Google's Pub/Sub load-test framework measures them (burn-in, then a measurement"
          + " window sampled every second).",
      "Against a local emulator started for the test unless --project (real Pub/Sub) or --pubsub-emulator-host.",
      "  pubsub-load --duration 30s                                 (both sides, default settings)",
      "  pubsub-load --sweep threads=1,2,4,8                        (one measurement per value)",
      "  pubsub-load --grid \"delay=1,10,100ms; count=5,50,100,1000; bytes=2048,4096,1000000\" --trials 5",
      "Exit codes: 0 every message accounted for, 1 a check failed (lost, or published != acked + errors),",
      "2 bad flags, 3 the test could not run."
    })
public final class PubsubLoadCommand implements Callable<Integer> {
  @Option(
      names = "--project",
      paramLabel = "PROJECT",
      description = "Real Pub/Sub in PROJECT (Application Default Credentials).")
  String project;

  @Option(
      names = "--pubsub-emulator-host",
      paramLabel = "HOST:PORT",
      description = "An emulator already running (e.g. from 'ingestbench emulator').")
  String emulatorHost;

  @Option(
      names = "--side",
      defaultValue = "both",
      paramLabel = "publish|subscribe|both",
      description =
          "Which clients run (default: ${DEFAULT-VALUE}); run one side per machine as the framework does.")
  String side;

  @Option(names = "--topic", defaultValue = "pubsub-load")
  String topic;

  @Option(names = "--subscription", defaultValue = "pubsub-load-sub")
  String subscription;

  @Option(
      names = "--threads",
      defaultValue = "0",
      description =
          "Publisher threads feeding one client (default 0: 5 per core, the framework's choice).")
  int threads;

  @Option(
      names = "--message-size",
      defaultValue = "1000",
      paramLabel = "BYTES",
      description = "Payload bytes (default: ${DEFAULT-VALUE}, the framework's 1 KB).")
  int messageSize;

  @Option(
      names = "--batch-messages",
      defaultValue = "1000",
      description =
          "Publisher batch: max messages (default: ${DEFAULT-VALUE}; the client's own default is 100).")
  long batchMessages;

  @Option(
      names = "--batch-bytes",
      defaultValue = "9500000",
      description =
          "Publisher batch: max bytes (default: ${DEFAULT-VALUE}; the client's is 1000; 3,500,000 at most on an emulator).")
  long batchBytes;

  @Option(
      names = "--batch-delay",
      defaultValue = "10ms",
      paramLabel = "DURATION",
      description = "Publisher batch: max wait (default: ${DEFAULT-VALUE}; the client's is 1ms).")
  String batchDelay;

  @Option(
      names = "--max-outstanding-messages",
      defaultValue = "100000",
      description = "Publisher flow control (blocks beyond it).")
  long maxOutstandingMessages;

  @Option(
      names = "--max-outstanding-bytes",
      defaultValue = "100000000",
      description = "Publisher flow control (blocks beyond it).")
  long maxOutstandingBytes;

  @Option(
      names = "--rate",
      paramLabel = "MSGS/S",
      description =
          "Target publish rate over all threads (a rate limiter); 0: as fast as the client takes."
              + " Without it, both sides and no --sweep or --grid: find the highest rate both sides"
              + " sustain, and which side limits it.")
  Double rate;

  @Option(
      names = "--latency-slo",
      defaultValue = "10s",
      paramLabel = "DURATION",
      description =
          "Without --rate: the end-to-end p99 a sustained rate must stay within (default:"
              + " ${DEFAULT-VALUE}).")
  String latencySlo;

  @Option(
      names = "--max-probes",
      defaultValue = "5",
      description =
          "Without --rate: measurements the search may run, the first without a rate limit"
              + " (default: ${DEFAULT-VALUE}).")
  int maxProbes;

  @Option(
      names = "--pull",
      defaultValue = "auto",
      paramLabel = "auto|streaming|unary",
      description =
          "Streaming pull (the"
              + " client's Subscriber) or unary Pull requests; auto: streaming on Pub/Sub, unary on an emulator (pstest's"
              + " streaming pull sends one message per response every 10 ms: ~100 msg/s).")
  String pull;

  @Option(
      names = "--parallel-pull",
      defaultValue = "1",
      description = "Streaming pull: parallel pull count (the client's default: 1).")
  int parallelPull;

  @Option(
      names = "--subscriber-threads",
      defaultValue = "0",
      description =
          "Subscriber executor threads, or unary pullers (default 0: 8 per core, the framework's optimum).")
  int subscriberThreads;

  @Option(
      names = "--subscriber-max-outstanding-messages",
      defaultValue = "0",
      description = "Subscriber flow control; 0: no message limit (the framework's choice).")
  long subscriberMaxOutstandingMessages;

  @Option(
      names = "--subscriber-max-outstanding-bytes",
      defaultValue = "100000000",
      description = "Subscriber flow control bytes.")
  long subscriberMaxOutstandingBytes;

  @Option(
      names = "--pull-batch",
      defaultValue = "1000",
      description = "Unary pull: messages per Pull request.")
  int pullBatch;

  @Option(
      names = "--burn-in",
      defaultValue = "10s",
      paramLabel = "DURATION",
      description = "Warm-up before measuring (the framework: 10m on GCE).")
  String burnIn;

  @Option(
      names = "--duration",
      defaultValue = "30s",
      paramLabel = "DURATION",
      description = "Measurement window (the framework: 10m).")
  String duration;

  @Option(
      names = "--sweep",
      paramLabel = "KEY=V1,V2,...",
      description =
          "One measurement per value of threads, message-size, parallel-pull or pull-batch.")
  String sweep;

  @Option(
      names = "--grid",
      paramLabel = "SPEC",
      description =
          "Batching grid search, e.g. \"delay=1,10,100ms; count=5,50,100,1000; bytes=2048,4096,1000000\".")
  String grid;

  @Option(
      names = "--trials",
      defaultValue = "5",
      description = "With --grid: trials per combination (the published study: 25).")
  int trials;

  @Option(
      names = "--messages",
      defaultValue = "1000",
      description = "With --grid: messages each trial publishes and times.")
  long messages;

  @Option(
      names = "--seed",
      defaultValue = "1",
      description = "With --grid: the shuffle of the trials' order.")
  long seed;

  @Option(
      names = "--restart",
      description = "With --grid: start over instead of resuming the trials already in --out.")
  boolean restart;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Output directory (default: runs/pubsub-load-<UTC time>).")
  Path out;

  @Override
  public Integer call() throws Exception {
    LoadSettings settings = validate();
    Sweep parsedSweep = sweep == null ? null : Sweep.parse(sweep);
    BatchingGrid parsedGrid =
        grid == null ? null : BatchingGrid.parse(grid, trials, messages, seed);
    Path dir =
        out != null
            ? out
            : Path.of(
                "runs",
                "pubsub-load-"
                    + LocalDateTime.now(ZoneOffset.UTC)
                        .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    PubsubEmulator emulator = null;
    AtomicBoolean finished = new AtomicBoolean();
    Thread interrupted =
        new Thread(
            () -> {
              if (!finished.get()) {
                say(
                    "Stopped before the end: "
                        + (parsedGrid != null
                            ? "the finished trials are in "
                                + dir.resolve(LoadFiles.GRID_TRIALS)
                                + "; the same command resumes"
                            : parsedSweep != null || searches(settings)
                                ? "each finished "
                                    + (parsedSweep != null ? "value" : "probe")
                                    + " has its own report in "
                                    + dir
                                    + "; no summary of them was written"
                                : "the samples so far are in "
                                    + dir.resolve(LoadFiles.SAMPLES)
                                    + "; no summary was written"));
              }
            });
    Runtime.getRuntime().addShutdownHook(interrupted);
    try {
      String host = emulatorHost;
      if (project == null && host == null) {
        say("Starting the local Pub/Sub emulator");
        emulator = PubsubEmulator.start();
        host = emulator.hostAndPort();
      }
      String projectId = project != null ? project : "ingestbench-load";
      String target =
          project != null ? "Pub/Sub in project " + project : "the Pub/Sub emulator at " + host;
      Map<String, Object> machine = MachineInfo.describe();
      try (PubsubTarget pubsub = new PubsubTarget(projectId, project != null ? null : host)) {
        if (parsedGrid != null) {
          return parsedGrid.run(
              settings, pubsub, target, machine, dir, restart, PubsubLoadCommand::say);
        }
        if (parsedSweep != null) {
          return parsedSweep.run(settings, pubsub, target, machine, dir, PubsubLoadCommand::say);
        }
        if (searches(settings)) {
          return search(settings).run(pubsub, target, machine, dir, PubsubLoadCommand::say);
        }
        LoadResult result =
            new LoadRun(settings, pubsub, Runs.id(), PubsubLoadCommand::say).run(dir);
        Map<String, Object> summary = LoadReport.write(result, machine, target, dir);
        say(Runs.headline(result) + ". Report: " + dir.resolve(LoadFiles.REPORT));
        Verdict verdict = new Verdict(new VerificationPolicy(0));
        LoadVerification.judge(null, Runs.totals(summary)).forEach(verdict::add);
        if (!verdict.passed()) {
          say("Not every message is accounted for: " + Runs.describe(result));
        }
        for (Finding f : verdict.failuresFirst()) {
          say(f.heading() + " " + f.line());
        }
        return verdict.exitCode();
      }
    } finally {
      finished.set(true);
      try {
        Runtime.getRuntime().removeShutdownHook(interrupted);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running or about to: finished is set, so it stays quiet
      }
      if (emulator != null) {
        emulator.close();
      }
    }
  }

  /**
   * Every flag checked as a run would check it, before anything starts (also for documented
   * commands).
   */
  public LoadSettings validate() {
    LoadSettings settings = settings();
    if (project != null && emulatorHost != null) {
      throw new IllegalArgumentException(
          "--project and --pubsub-emulator-host: give one (real Pub/Sub, or an emulator)");
    }
    if (sweep != null && grid != null) {
      throw new IllegalArgumentException("--sweep and --grid: give one per run");
    }
    if (sweep != null) {
      Sweep.parse(sweep);
    }
    if (grid != null) {
      BatchingGrid.parse(grid, trials, messages, seed);
    }
    if (searches(settings)) {
      search(settings);
    }
    return settings;
  }

  /** No --rate, both sides, no sweep or grid: the run searches for the highest sustained rate. */
  boolean searches(LoadSettings settings) {
    return rate == null
        && sweep == null
        && grid == null
        && settings.side() == LoadSettings.Side.BOTH;
  }

  MaxRateSearch search(LoadSettings settings) {
    Duration slo = duration("--latency-slo", latencySlo);
    if (slo.isZero() || slo.isNegative()) {
      throw new IllegalArgumentException(
          "--latency-slo " + latencySlo + " must be above 0, e.g. 10s");
    }
    if (maxProbes < 2) {
      throw new IllegalArgumentException(
          "--max-probes "
              + maxProbes
              + " must be 2 or more: the first probe measures the publisher alone");
    }
    return new MaxRateSearch(settings, slo, maxProbes);
  }

  LoadSettings settings() {
    int cores = Runtime.getRuntime().availableProcessors();
    return new LoadSettings(
            enumValue(LoadSettings.Side.class, "--side", side),
            topic,
            subscription,
            threads > 0 ? threads : 5 * cores,
            messageSize,
            batchMessages,
            batchBytes,
            duration("--batch-delay", batchDelay),
            maxOutstandingMessages,
            maxOutstandingBytes,
            rate == null ? 0 : rate,
            pull.equalsIgnoreCase("auto")
                ? (project == null ? LoadSettings.PullMode.UNARY : LoadSettings.PullMode.STREAMING)
                : enumValue(LoadSettings.PullMode.class, "--pull", pull),
            parallelPull,
            subscriberThreads > 0 ? subscriberThreads : 8 * cores,
            subscriberMaxOutstandingMessages,
            subscriberMaxOutstandingBytes,
            pullBatch,
            duration("--burn-in", burnIn),
            duration("--duration", duration),
            messages)
        .validated();
  }

  /** {@code 10ms}, {@code 30s}, {@code 5m}. */
  static Duration duration(String flag, String text) {
    return Durations.parse(text)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    flag + " " + text + " is not a duration: write it as 500ms, 30s, 10m or 1h"));
  }

  private static <E extends Enum<E>> E enumValue(Class<E> type, String flag, String value) {
    for (E e : type.getEnumConstants()) {
      if (e.name().equalsIgnoreCase(value)) {
        return e;
      }
    }
    throw new IllegalArgumentException(
        flag
            + " "
            + value
            + " is not one of "
            + Arrays.stream(type.getEnumConstants())
                .map(e -> e.name().toLowerCase(Locale.ROOT))
                .toList());
  }

  /** As under {@code ingestbench}: bad flags end with one line and exit 2, failures with 3. */
  public static CommandLine commandLine() {
    return new CommandLine(new PubsubLoadCommand())
        .setUsageHelpWidth(100)
        .setExecutionExceptionHandler(
            (e, cl, parsed) -> MainErrors.report("pubsub-load", e, cl.getErr()));
  }

  static void say(String line) {
    System.err.println("[pubsub-load] " + line);
  }
}
