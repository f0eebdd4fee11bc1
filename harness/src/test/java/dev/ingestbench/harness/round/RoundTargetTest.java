package dev.ingestbench.harness.round;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.cloud.pubsub.v1.TopicAdminClient;
import com.google.cloud.pubsub.v1.TopicAdminSettings;
import dev.ingestbench.contracts.ConsumerProgress;
import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.PublisherResult;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.harness.flink.PipelineRunner;
import dev.ingestbench.harness.process.BigQueryEmulatorRest;
import dev.ingestbench.harness.process.ProcessLauncher;
import dev.ingestbench.harness.process.ScriptedProcess;
import dev.ingestbench.harness.process.ScriptedRuns;
import dev.ingestbench.harness.process.ScriptedSinkWrites;
import dev.ingestbench.harness.staged.LocalSegments;
import dev.ingestbench.harness.staged.RunDirectory;
import dev.ingestbench.harness.staged.StagedDriver;
import dev.ingestbench.harness.staged.Ticker;
import dev.ingestbench.pubsub.PubsubChannels;
import dev.ingestbench.scenario.ScenarioFile;
import dev.ingestbench.scenario.ScenarioPlan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A round's target on its real servers (the Pub/Sub emulator, the BigQuery emulator) with scripted
 * processes for its backlog publisher and consumers: where a round keeps its files, how its
 * consumers end (by themselves, at their count or their --timeout), when its live messages go, and
 * what a failing consumer or a dying server does to it, in seconds and without a pipeline.
 */
@Tag("e2e")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RoundTargetTest {
  @TempDir Path dir;

  private final List<ScriptedProcess> consumers = new CopyOnWriteArrayList<>();

  /** Whether the backlog's publisher fails (exit 1) instead of saying it published. */
  private boolean publisherFails;

  /** The backlog publisher publishes its messages (else it only says it did). */
  private boolean publisherPublishes;

  /** The backlog publisher kills the Pub/Sub emulator and waits. */
  private boolean publisherKillsPstest;

  private Path out() {
    return dir.resolve("out");
  }

  @Test
  void aRoundKeepsItsFilesInOutAndItsConsumerStopsByItselfOnceTheLiveMessagesAreIn()
      throws Exception {
    RoundSpec spec = spec(300, 200, 400);
    AtomicBoolean liveBeforeDrained = new AtomicBoolean();
    int exit =
        run(
            spec,
            (consumer, command) ->
                afterward(
                    () -> {
                      // Half the backlog read for a while: no live message may go yet.
                      Thread.sleep(2_000);
                      // The live publisher tells the local BigQuery its schedule as it starts.
                      BigQueryEmulatorRest bigQuery =
                          new BigQueryEmulatorRest(
                              ScriptedRuns.flag(command, "--bigQueryEndpoint"));
                      liveBeforeDrained.set(!bigQuery.schedule().isEmpty());
                      // The backlog read: the live messages go; then it stops by itself at its
                      // count.
                      consumer.print(new ConsumerProgress(100, 100).toLine());
                      waitFor(out().resolve(RunFiles.PUBLISHER_LIVE));
                      finish(consumer, command, spec.seed(), 300);
                    }),
            List.of(new ConsumerProgress(50, 50).toLine()));
    assertEquals(ExitCodes.OK, exit);
    assertFalse(liveBeforeDrained.get(), "live messages went before the backlog was drained");
    PublisherResult live =
        RunJson.read(out().resolve(RunFiles.PUBLISHER_LIVE), PublisherResult.class);
    assertEquals(200, live.published(), "every live message, acknowledged by the Pub/Sub emulator");
    assertEquals("projects/ingestbench-local/topics/taxi-rides", live.topic());
    assertTrue(Files.exists(out().resolve("consumer.log")), "the consumer's log is in --out");
    assertFalse(Files.exists(out().resolve("segment-1")), "a round has no segment directory");
    List<String> command = consumers.get(0).command();
    assertTrue(command.contains("--stopWhenParentExits=true"), command.toString());
    assertTrue(command.contains("--expectedMessages=300"), command.toString());
    assertFalse(
        command.stream().anyMatch(a -> a.startsWith("--stopOnStdinEof")), command.toString());
    assertFalse(consumers.get(0).stdinClosed(), "nobody asked it to stop: it ended at its count");
    ScriptedRuns.assertNothingRunning(consumers);
  }

  /** Live messages the source refuses: the round fails at once, the jobs unverified. */
  @Test
  void liveMessagesThatCannotBePublishedFailTheRound() throws Exception {
    int exit;
    try {
      exit =
          run(
              spec(300, 200, 400),
              (consumer, command) ->
                  afterward(
                      () -> {
                        deleteTopic(ScriptedRuns.flag(command, "--pubsubEmulatorHost"));
                        consumer.print(new ConsumerProgress(100, 100).toLine());
                      }),
              List.of());
    } catch (IOException e) {
      assertTrue(
          e.getMessage().contains("the live messages were not all published"), e.getMessage());
      exit = ExitCodes.FAILED;
    }
    assertEquals(ExitCodes.FAILED, exit);
    assertFalse(
        Files.exists(out().resolve(RunFiles.PUBLISHER_LIVE)),
        "no result: nothing is known published");
    ScriptedRuns.assertNothingRunning(consumers);
  }

  /**
   * A segment that cannot start (its backlog publisher fails) fails the round naming the
   * publisher's log, starts no consumer and leaves nothing running.
   */
  @Test
  void aBacklogPublisherThatFailsEndsTheRoundBeforeAnyConsumerStarts() throws Exception {
    publisherFails = true;
    IOException e =
        assertThrows(
            IOException.class, () -> run(spec(300, 0, 0), (consumer, command) -> {}, List.of()));
    assertTrue(e.getMessage().contains(out().resolve("publisher.log").toString()), e.getMessage());
    assertTrue(consumers.isEmpty(), "no consumer started");
    assertFalse(Files.exists(out().resolve(RunFiles.PUBLISHER_LIVE)), "no live messages");
  }

  /**
   * {@code --kill-consumer-at}: once the job has moved forward and Flink completed a checkpoint
   * after that, the consumer is killed (SIGKILL), started again from that checkpoint, its first
   * life's log kept as {@code consumer.1.log}; the second life's own end ends the round.
   */
  @Test
  void aKilledConsumerIsRestoredFromItsCheckpointAndItsNextLifeEndsTheRound() throws Exception {
    RoundSpec spec = killingAt(spec(100, 0, 0), 1L);
    int exit =
        run(
            spec,
            (consumer, command) -> {
              if (consumers.size() == 1) {
                afterward(
                    () -> {
                      // It writes and completes a checkpoint every second until it is killed.
                      Path checkpoints =
                          Path.of(
                              java.net.URI.create(
                                  ScriptedRuns.flag(command, "--stateBackendStoragePath")));
                      for (int n = 1; n <= 30 && consumer.isAlive(); n++) {
                        consumer.print(new ConsumerProgress(n, n).toLine());
                        Thread.sleep(500);
                        Path chk = checkpoints.resolve("job/chk-" + n);
                        Files.createDirectories(chk);
                        Files.writeString(chk.resolve("_metadata"), "state");
                        Thread.sleep(500);
                      }
                    });
              } else {
                afterward(() -> finish(consumer, command, spec.seed(), 100));
              }
            },
            List.of());
    assertEquals(ExitCodes.OK, exit);
    assertEquals(2, consumers.size(), "one restart");
    assertTrue(consumers.get(0).signalledBy() != null, "the first life was killed");
    String restore = ScriptedRuns.flag(consumers.get(1).command(), "--savepointPath");
    assertTrue(restore.matches(".*/job/chk-\\d+/?"), restore);
    assertTrue(Files.exists(out().resolve("consumer.1.log")), "the first life's log is kept");
    assertTrue(Files.exists(out().resolve("consumer.log")), "the running life's log");
    String status = Files.readString(out().resolve("status/01-round.json"));
    assertTrue(status.contains("kill_consumer_at"), status);
    ScriptedRuns.assertNothingRunning(consumers);
  }

  /**
   * {@code --feed}: no backlog publisher; each job's own topic (named as its subscription) is fed
   * the round's count from this JVM as it starts, and what it got is the round's backlog result.
   */
  @Test
  void aFedRoundFeedsEachJobItsOwnTopicAndWritesWhatItGotAsTheBacklog() throws Exception {
    RoundSpec spec = feeding(spec(300, 0, 0));
    int exit =
        run(
            spec,
            (consumer, command) ->
                afterward(
                    () -> {
                      String subscription = ScriptedRuns.flag(command, "--subscription");
                      if (!subscription.startsWith("projects/")) {
                        subscription = "projects/ingestbench-local/subscriptions/" + subscription;
                      }
                      java.util.BitSet waiting =
                          dev.ingestbench.harness.source.SubscriptionBacklog.read(
                              ScriptedRuns.flag(command, "--pubsubEmulatorHost"), subscription);
                      fedToSubscription.set(waiting.cardinality());
                      finish(consumer, command, spec.seed(), 300);
                    }),
            List.of());
    assertEquals(ExitCodes.OK, exit);
    assertEquals(300, fedToSubscription.get(), "the job's subscription holds its 300 messages");
    PublisherResult backlog =
        RunJson.read(out().resolve(RunFiles.PUBLISHER_BACKLOG), PublisherResult.class);
    assertEquals(300, backlog.published());
    assertTrue(Files.exists(out().resolve(RunFiles.FEED)), "feed.json");
    assertFalse(Files.exists(out().resolve("publisher.log")), "no backlog publisher started");
    ScriptedRuns.assertNothingRunning(consumers);
  }

  private final java.util.concurrent.atomic.AtomicInteger fedToSubscription =
      new java.util.concurrent.atomic.AtomicInteger(-1);

  /** {@code spec} with --kill-consumer-at {@code seconds}. */
  private static RoundSpec killingAt(RoundSpec s, Long seconds) {
    return with(s, seconds, s.feed());
  }

  /** {@code spec} with --feed. */
  private static RoundSpec feeding(RoundSpec s) {
    return with(s, s.killConsumerAt(), true);
  }

  private static RoundSpec with(RoundSpec s, Long killConsumerAt, boolean feed) {
    return new RoundSpec(
        s.out(),
        s.force(),
        s.messages(),
        s.liveMessages(),
        s.liveRate(),
        s.source(),
        s.partitions(),
        s.sharedConsumerGroup(),
        s.messageFormat(),
        s.messageSize(),
        s.seed(),
        s.job(),
        s.jobs(),
        s.sink(),
        s.emulatorLimits(),
        killConsumerAt,
        s.crashEverySeconds(),
        s.runner(),
        s.pullBatchSize(),
        s.heap(),
        s.maxDeadLetters(),
        s.timeoutSeconds(),
        s.consumerArgs(),
        s.findMaxRate(),
        s.liveProfile(),
        feed,
        s.savepointAt());
  }

  private static void deleteTopic(String host) throws Exception {
    try (PubsubChannels channels = PubsubChannels.forEmulatorHost(host);
        TopicAdminClient topics =
            TopicAdminClient.create(
                TopicAdminSettings.newBuilder()
                    .setTransportChannelProvider(channels.channelProvider())
                    .setCredentialsProvider(channels.credentialsProvider())
                    .build())) {
      topics.deleteTopic("projects/ingestbench-local/topics/taxi-rides");
    }
  }

  /**
   * Counted from its sink and its subscription: 40 written, 60 left unread, none lost; yet the
   * round did not finish what it was to measure, so it is not verified (exit 3).
   */
  @Test
  void aConsumerThatStopsAtItsTimeoutLeavesTheRoundUnverifiedNotLost() throws Exception {
    publisherPublishes = true;
    RoundSpec spec = spec(100, 0, 0);
    int exit =
        run(spec, ends(spec.seed(), 40, "timeout after 600 s", ExitCodes.INCOMPLETE), List.of());
    assertEquals(
        ExitCodes.FAILED, exit, "a round that could not be carried out, not a verification result");
    List<ResultRecord> results = new RunDirectory(out()).readResults();
    assertEquals(100, value(results, "published"));
    assertEquals(40, value(results, "accounted_for"));
    assertEquals(60, value(results, "left"), "read from its subscription");
    assertTrue(
        results.stream().noneMatch(r -> r.metric().equals("lost")),
        "no loss figure: the figures cannot decide; " + results);
    ScriptedRuns.assertNothingRunning(consumers);
  }

  /** Rows of another seed's events: every one is checked against its event and fails the round. */
  @Test
  void rowsThatAreNotTheirEventsFailTheRound() throws Exception {
    RoundSpec spec = spec(100, 0, 0);
    int exit =
        run(
            spec,
            ends(spec.seed() + 1, 100, "expected messages accounted for", ExitCodes.OK),
            List.of());
    assertEquals(ExitCodes.INCOMPLETE, exit, "mismatched rows: exit 1");
    List<ResultRecord> results = new RunDirectory(out()).readResults();
    assertEquals(100, value(results, "accounted_for"), "every row's event index is one published");
    assertEquals(0, value(results, "lost"), "nothing lost: the exit is the rows' content");
    ScriptedRuns.assertNothingRunning(consumers);
  }

  /**
   * A consumer that stopped short with nothing left in its source (the scripted publisher publishes
   * nothing, as a source read to its end): what it did not write is lost, exit 1.
   */
  @Test
  void aConsumerThatStoppedShortWithItsSourceReadIsJudgedLost() throws Exception {
    RoundSpec spec = spec(100, 0, 0);
    int exit =
        run(spec, ends(spec.seed(), 60, "source read in full", ExitCodes.INCOMPLETE), List.of());
    assertEquals(ExitCodes.INCOMPLETE, exit, "40 lost: exit 1");
    List<ResultRecord> results = new RunDirectory(out()).readResults();
    assertEquals(0, value(results, "left"));
    assertEquals(40, value(results, "lost"));
    ScriptedRuns.assertNothingRunning(consumers);
  }

  @Test
  void aConsumerThatFailsEndsTheRoundNamingItsLog() throws Exception {
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                run(
                    spec(100, 0, 0),
                    (consumer, command) -> afterward(() -> consumer.exitNow(ExitCodes.USAGE)),
                    List.of()));
    assertTrue(e.getMessage().contains(out().resolve("consumer.log").toString()), e.getMessage());
    assertTrue(e.getMessage().contains("exit 2"), e.getMessage());
    ScriptedRuns.assertNothingRunning(consumers);
  }

  /**
   * The Pub/Sub emulator dies while the backlog is published: the round names the server, not only
   * the publisher that failed because of it, and starts no consumer.
   */
  @Test
  void aServerThatDiesWhileTheRoundStartsEndsItNamingTheServer() throws Exception {
    publisherKillsPstest = true;
    IOException e =
        assertThrows(
            IOException.class, () -> run(spec(300, 0, 0), (consumer, command) -> {}, List.of()));
    assertTrue(
        String.valueOf(e.getMessage()).contains("the Pub/Sub emulator died"), e.getMessage());
    assertTrue(consumers.isEmpty(), "no consumer started");
    ScriptedRuns.assertNothingRunning(consumers);
  }

  @Test
  void aServerThatDiesEndsTheRoundNamingIt() throws Exception {
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                run(
                    spec(100, 0, 0),
                    (consumer, command) -> afterward(ScriptedRuns::killPstest),
                    List.of()));
    assertTrue(
        String.valueOf(e.getMessage()).contains("the Pub/Sub emulator died"), e.getMessage());
    ScriptedRuns.assertNothingRunning(consumers);
  }

  /**
   * The Pub/Sub emulator dies while the live messages go, with messages outstanding in the client:
   * the round ends naming it within seconds, not after the client's five minutes of retries to a
   * server that is gone (what a round did before the live publisher's close was bounded).
   */
  @Test
  void aServerThatDiesWhileLiveMessagesGoEndsTheRoundWithinSeconds() throws Exception {
    long start = System.nanoTime();
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                run(
                    spec(300, 200, 20), // 10 s of live messages
                    (consumer, command) ->
                        afterward(
                            () -> {
                              consumer.print(new ConsumerProgress(100, 100).toLine());
                              Thread.sleep(3_000); // the live messages have begun
                              ScriptedRuns.killPstest();
                            }),
                    List.of()));
    long seconds = (System.nanoTime() - start) / 1_000_000_000L;
    assertTrue(
        String.valueOf(e.getMessage()).contains("the Pub/Sub emulator died"), e.getMessage());
    assertTrue(seconds < 90, "the round took " + seconds + " s");
    ScriptedRuns.assertNothingRunning(consumers);
  }

  /**
   * A one-job round of {@code messages}, {@code live} of them at {@code rate} once the backlog is
   * drained, into {@link #out}.
   */
  private RoundSpec spec(long messages, long live, double rate) throws Exception {
    String publish =
        live == 0
            ? "{messages: " + messages + ", backlog: " + messages + "}"
            : "{messages: "
                + messages
                + ", backlog: "
                + (messages - live)
                + ", rate: "
                + rate
                + "}";
    Path file =
        Files.writeString(
            dir.resolve("round.yaml"),
            """
            name: r
            source: {kind: pubsub, topic: taxi-rides}
            publish: PUBLISH
            jobs: {a: {}}
            stages:
              - {name: one, start: [a], until: drained, max: 1m}
            """
                .replace("PUBLISH", publish));
    ScenarioPlan scenario = ScenarioPlan.of(ScenarioFile.load(file), 1, 0);
    return RoundSpec.forScenarioJob(
            scenario, "a", out(), "256m", PipelineRunner.embeddedFlink(), null)
        .validate();
  }

  /**
   * Runs the round as {@code ingestbench round} does: its one stage on the round's target. Each
   * consumer prints {@code lines} at once and is then given to {@code onConsumer} with its command.
   */
  private int run(
      RoundSpec spec, BiConsumer<ScriptedProcess, List<String>> onConsumer, List<String> lines)
      throws Exception {
    RoundPlan plan = new RoundPlan(spec);
    Files.createDirectories(out().resolve(RunFiles.STATUS_DIRECTORY));
    ProcessLauncher launcher =
        command -> {
          if (command.contains("dev.ingestbench.publisher.PublisherPipeline")) {
            if (publisherKillsPstest) {
              // It publishes nothing and never ends by itself: the Pub/Sub emulator dies under it.
              ScriptedProcess stuck = new ScriptedProcess(command, written -> -1);
              afterward(ScriptedRuns::killPstest);
              return stuck;
            }
            if (publisherFails) {
              ScriptedProcess failed = new ScriptedProcess(command, written -> ExitCodes.FAILED);
              failed.exitNow(ExitCodes.FAILED);
              return failed;
            }
            return publisherPublishes
                ? ScriptedRuns.publishingPublisher(command, "taxi-rides")
                : ScriptedRuns.publisher(command, "taxi-rides");
          }
          // Nobody closes a round consumer's standard input: if someone does, it keeps running.
          ScriptedProcess consumer = new ScriptedProcess(command, written -> -1, lines);
          consumers.add(consumer);
          onConsumer.accept(consumer, command);
          return consumer;
        };
    ScenarioRun run =
        new ScenarioRun(
            plan.runId, "round", "local", 1, "sha", Instant.now().toString(), "test", 2, null);
    ScenarioPlan stages = plan.stages();
    LocalSegments target = RoundRunner.target(spec, plan, launcher);
    return RoundRunner.runOneStage(
        new StagedDriver(
                stages,
                new RunDirectory(out()),
                run,
                target,
                Duration.ZERO,
                Ticker.system(),
                Map.of(RoundPlan.jobName(1), Map.of()))
            .speakingAs("round"),
        target);
  }

  /**
   * A scripted consumer that, a second after it starts, {@link #end}s: {@code rows} rows of {@code
   * seed}'s events written, stopped for {@code reason}, exit {@code exit}.
   */
  private static BiConsumer<ScriptedProcess, List<String>> ends(
      long seed, int rows, String reason, int exit) {
    return (consumer, command) -> afterward(() -> end(consumer, command, seed, rows, reason, exit));
  }

  /** The consumer writes {@code rows} rows, accounts for its count and exits 0. */
  private static void finish(ScriptedProcess consumer, List<String> command, long seed, int rows)
      throws Exception {
    end(consumer, command, seed, rows, "expected messages accounted for", ExitCodes.OK);
  }

  /**
   * The consumer's end: the rows of events {@code 0..rows-1} of {@code seed} written to its sink
   * under its job's trace id, its result ({@code rows} accounted for, stopped for {@code reason}),
   * then its exit.
   */
  private static void end(
      ScriptedProcess consumer, List<String> command, long seed, int rows, String reason, int exit)
      throws Exception {
    ScriptedSinkWrites.write(command, seed, rows);
    writeResult(command, rows, reason);
    consumer.exitNow(exit);
  }

  /**
   * The consumer's result, in its --localOutputDir: {@code accounted} of its --expectedMessages,
   * each written once.
   */
  private static void writeResult(List<String> command, long accounted, String stopReason) {
    long expected = Long.parseLong(ScriptedRuns.flag(command, "--expectedMessages"));
    try {
      RunJson.write(
          Path.of(ScriptedRuns.flag(command, "--localOutputDir")).resolve(RunFiles.CONSUMER_RESULT),
          new ConsumerResult(
              "FlinkRunner",
              "pubsub",
              "exactly-once",
              "json-column",
              "tablerow",
              1,
              false,
              0,
              1,
              Instant.now().toString(),
              1,
              stopReason,
              expected,
              accounted,
              accounted,
              0,
              0,
              0,
              accounted,
              null,
              null,
              null,
              null,
              List.of(),
              1,
              2,
              1,
              1,
              0,
              List.of(),
              0,
              ScriptedRuns.flag(command, "--runId"),
              0,
              0,
              List.of(),
              null,
              0,
              0,
              "uniform",
              0,
              List.of(),
              0));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static double value(List<ResultRecord> results, String metric) {
    return results.stream()
        .filter(r -> r.metric().equals(metric))
        .reduce((first, second) -> second)
        .orElseThrow(() -> new AssertionError("no " + metric + " in " + results))
        .value();
  }

  /** Runs {@code action} on a thread of its own, starting a second from now. */
  private static void afterward(ThrowingRunnable action) {
    Thread t =
        new Thread(
            () -> {
              try {
                Thread.sleep(1_000);
                action.run();
              } catch (Exception e) {
                // The test's assertions fail then; this says why.
                e.printStackTrace();
              }
            });
    t.setDaemon(true);
    t.start();
  }

  @FunctionalInterface
  private interface ThrowingRunnable {
    void run() throws Exception;
  }

  private static void waitFor(Path file) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.exists(file) && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
  }
}
