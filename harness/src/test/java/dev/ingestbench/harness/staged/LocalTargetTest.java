package dev.ingestbench.harness.staged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.harness.flink.PipelineRunner;
import dev.ingestbench.harness.process.ProcessLauncher;
import dev.ingestbench.harness.process.ScriptedProcess;
import dev.ingestbench.harness.process.ScriptedRuns;
import dev.ingestbench.scenario.ScenarioFile;
import dev.ingestbench.scenario.ScenarioPlan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local target on its real servers (the Pub/Sub emulator, the BigQuery emulator) with scripted
 * processes for its publisher and consumers: what a consumer that fails, a server that dies and a
 * job that never writes do to a run, in seconds and without a pipeline. The scripted publisher
 * publishes nothing and says it published every message; the run must then find them lost.
 */
@Tag("e2e")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class LocalTargetTest {
  private static final String SCENARIO =
      """
      name: t
      source: {kind: pubsub, topic: rides}
      publish: {messages: 100, backlog: 100}
      jobs: {a: {}}
      stages:
        - {name: one, start: [a], STAGE}
      """;

  @TempDir Path dir;

  private final List<ScriptedProcess> consumers = new CopyOnWriteArrayList<>();

  /** What a consumer does when its standard input closes, given its command line. */
  private Function<List<String>, ScriptedProcess.OnStdinClosed> consumerScript =
      command -> written -> ExitCodes.OK;

  @Test
  void aConsumerThatFailsEndsTheStageNamingItsLogAndLeavesNothingRunning() throws Exception {
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                run(
                    "until: drained, max: 1m",
                    consumer -> later(() -> consumer.exitNow(ExitCodes.USAGE))));
    assertEquals(
        "stage one: job a's consumer ended (exit 2) with 0 of 100 messages accounted for; see "
            + dir.resolve("out/segment-1/a.log"),
        e.getMessage());
    ScriptedRuns.assertNothingRunning(consumers);
  }

  @Test
  void aServerThatDiesEndsTheStageNamingItAndStopsTheConsumer() throws Exception {
    IOException e =
        assertThrows(
            IOException.class,
            () -> run("until: drained, max: 1m", consumer -> later(ScriptedRuns::killPstest)));
    assertTrue(
        e.getMessage()
            .startsWith("stage one: the Pub/Sub emulator died during the run, so it cannot finish"),
        e.getMessage());
    assertEquals(
        "server-watch",
        consumers.get(0).signalledBy(),
        "the watch stopped the consumer when the server died, before the run ended");
    ScriptedRuns.assertNothingRunning(consumers);
  }

  /**
   * A server that dies while a stage stops a job: the watch stops the consumer that was stopping,
   * and the run names the death, not the consumer's exit.
   */
  @Test
  void aServerThatDiesWhileAJobStopsIsNamedAsTheReason() throws Exception {
    consumerScript =
        command ->
            command.contains("--jobName=a")
                ? written -> {
                  ScriptedRuns.killPstest(); // as its drain begins
                  return -1; // still stopping when the watch sees the death
                }
                : written -> ExitCodes.OK;
    String twoStages =
        """
        name: t
        source: {kind: pubsub, topic: rides}
        publish: {messages: 100, backlog: 100}
        jobs: {a: {}, b: {}}
        stages:
          - {name: one, start: [a, b], hold: 2s}
          - {name: two, stop: [a], hold: 2s}
        """;
    IOException e = assertThrows(IOException.class, () -> targetOf(twoStages, c -> {}).run());
    assertTrue(
        e.getMessage()
            .startsWith("stage two: the Pub/Sub emulator died during the run, so it cannot finish"),
        e.getMessage());
    ScriptedRuns.assertNothingRunning(consumers);
  }

  @Test
  void aJobThatNeverWritesHasLostWhatWasPublishedAndTheRunFails() throws Exception {
    assertEquals(ExitCodes.INCOMPLETE, run("hold: 2s", consumer -> {}), "a loss is exit 1");
    List<ResultRecord> results = new RunDirectory(dir.resolve("out")).readResults();
    assertEquals(100, value(results, "published"));
    assertEquals(0, value(results, "accounted_for"));
    assertEquals(0, value(results, "left"), "nothing was in its subscription");
    assertEquals(100, value(results, "lost"));
    assertTrue(consumers.get(0).stdinClosed(), "drained: its stdin was closed");
    assertEquals(null, consumers.get(0).signalledBy(), "and it stopped by itself, not by a signal");
    ScriptedRuns.assertNothingRunning(consumers);
  }

  /**
   * A job writing in-process whose consumer ended without leaving its emulator's files: what it
   * wrote ended with its JVM, so it is unverified and the run fails, never counted as written.
   */
  @Test
  void anInProcessJobThatLeftNoResultsIsUnverifiedAndTheRunFails() throws Exception {
    String yaml = SCENARIO.replace("jobs: {a: {}}", "jobs: {a: {sink: in-process}}");
    // It announces an emulator (on a port nothing listens on, as once its JVM is gone), then
    // ends without the files a stopped consumer leaves.
    Consumer<ScriptedProcess> announcing =
        consumer -> {
          String dirFlag = "--localOutputDir=";
          Path own =
              Path.of(
                  consumer.command().stream()
                      .filter(f -> f.startsWith(dirFlag))
                      .findFirst()
                      .orElseThrow()
                      .substring(dirFlag.length()));
          try {
            RunJson.write(
                own.resolve(RunFiles.IN_PROCESS_BIGQUERY),
                java.util.Map.of(RunFiles.IN_PROCESS_BIGQUERY_REST, "http://127.0.0.1:1"));
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        };
    int exit = targetOf(yaml.replace("STAGE", "hold: 2s"), announcing).run();
    assertEquals(ExitCodes.FAILED, exit, "unverified is a failed run");
    assertTrue(
        consumers.get(0).command().contains("--sink=in-process"),
        String.join(" ", consumers.get(0).command()));
    List<ResultRecord> results = new RunDirectory(dir.resolve("out")).readResults();
    assertTrue(
        results.stream().noneMatch(r -> r.job().equals("a") && r.metric().equals("lost")),
        "no loss figure: nothing is known of what it wrote; " + results);
  }

  private int run(String stage, Consumer<ScriptedProcess> onConsumer) throws Exception {
    return target(stage, onConsumer).run();
  }

  /** Job a's {@code metric} in its verification. */
  private static double value(List<ResultRecord> results, String metric) {
    return results.stream()
        .filter(r -> r.job().equals("a") && r.metric().equals(metric))
        .reduce((first, second) -> second)
        .orElseThrow(() -> new AssertionError("no " + metric + " in " + results))
        .value();
  }

  /**
   * The scenario with its stage's condition {@code stage}; each consumer, once launched, is given
   * to {@code onConsumer}.
   */
  private LocalTarget target(String stage, Consumer<ScriptedProcess> onConsumer) throws Exception {
    return targetOf(SCENARIO.replace("STAGE", stage), onConsumer);
  }

  /** The scenario {@code yaml}; each consumer, once launched, is given to {@code onConsumer}. */
  private LocalTarget targetOf(String yaml, Consumer<ScriptedProcess> onConsumer) throws Exception {
    Path file = Files.writeString(dir.resolve("t.yaml"), yaml);
    ScenarioPlan plan = ScenarioPlan.of(ScenarioFile.load(file), 1, 0);
    RunDirectory out = new RunDirectory(dir.resolve("out"));
    ScenarioRun run =
        new ScenarioRun("t-1", "t", "local", 1, "sha", Instant.now().toString(), "test", 2, null);
    out.start(run, file);
    ProcessLauncher launcher =
        command -> {
          if (command.contains("dev.ingestbench.publisher.PublisherPipeline")) {
            return ScriptedRuns.publisher(command, "rides");
          }
          ScriptedProcess consumer = new ScriptedProcess(command, consumerScript.apply(command));
          consumers.add(consumer);
          onConsumer.accept(consumer);
          return consumer;
        };
    return new LocalTarget(
        plan, out, run, "256m", Duration.ofSeconds(5), PipelineRunner.embeddedFlink(), launcher);
  }

  /** Runs {@code action} a second from now, while the stage runs. */
  private static void later(Runnable action) {
    Thread t =
        new Thread(
            () -> {
              try {
                Thread.sleep(1_000);
              } catch (InterruptedException e) {
                return;
              }
              action.run();
            });
    t.setDaemon(true);
    t.start();
  }
}
