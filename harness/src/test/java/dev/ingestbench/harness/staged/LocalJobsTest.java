package dev.ingestbench.harness.staged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.StopMode;
import dev.ingestbench.harness.flink.PipelineRunner;
import dev.ingestbench.harness.process.BigQueryEmulatorProcess;
import dev.ingestbench.harness.process.ProcessCpuSampler;
import dev.ingestbench.harness.process.ScriptedProcess;
import dev.ingestbench.scenario.ScenarioFile;
import dev.ingestbench.scenario.ScenarioPlan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scenario's consumer JVMs without JVMs: scripted processes stand in for them, so what starting,
 * stopping, a failure, a savepoint and a kill do to a job is checked in milliseconds.
 */
class LocalJobsTest {
  private static final String SCENARIO =
      """
      name: t
      source: {kind: pubsub, topic: rides}
      publish: {messages: 1000, backlog: 1000}
      jobs: {a: {}}
      stages:
        - {name: one, start: [a], hold: 10s, kill_consumer_at: 5s}
        - {name: two, stop: [a], start: [a], stop_with: savepoint, hold: 10s}
      """;

  private static final BigQueryEmulatorProcess.Address BIGQUERY =
      new BigQueryEmulatorProcess.Address("127.0.0.1:1", "http://127.0.0.1:1");

  @TempDir Path dir;

  /** What the next launches do when their standard input closes, in order. */
  private final Deque<ScriptedProcess.OnStdinClosed> scripts = new ArrayDeque<>();

  private final List<ScriptedProcess> launched = new ArrayList<>();
  private Path segment;
  private ProcessCpuSampler cpu;
  private LocalJobs jobs;

  @BeforeEach
  void jobs() throws Exception {
    Path file = Files.writeString(dir.resolve("s.yaml"), SCENARIO);
    ScenarioPlan plan = ScenarioPlan.of(ScenarioFile.load(file), 1, 0);
    segment = Files.createDirectories(dir.resolve("segment-1"));
    cpu = new ProcessCpuSampler(segment);
    jobs =
        new LocalJobs(
            new ScenarioConsumers(plan, 600, PipelineRunner.embeddedFlink()),
            "256m",
            PipelineRunner.embeddedFlink(),
            command -> {
              ScriptedProcess p =
                  new ScriptedProcess(command, scripts.isEmpty() ? written -> 0 : scripts.poll());
              launched.add(p);
              return p;
            });
  }

  @AfterEach
  void close() throws Exception {
    jobs.close();
    cpu.close();
  }

  private void start() throws IOException {
    jobs.start("a", "127.0.0.1:2", BIGQUERY, segment, cpu, null, Optional.empty());
  }

  @Test
  void aStoppedJobIsAskedThroughItsStdinAndAFailedStopNamesItsLog() throws Exception {
    scripts.add(written -> written.isEmpty() ? ExitCodes.OK : 99);
    scripts.add(written -> ExitCodes.FAILED);
    start();
    assertEquals(OptionalInt.empty(), jobs.ended("a"), "running");
    assertTrue(jobs.pid("a") > 0);
    assertTrue(jobs.stop("a", segment, null), "a drain is its stdin closed, nothing written");
    assertEquals(-1, jobs.pid("a"), "no longer running");
    assertFalse(jobs.stop("a", segment, null), "not running any more");

    start();
    assertTrue(Files.exists(segment.resolve("a.1.log")), "the first life's log is kept");
    IOException e = assertThrows(IOException.class, () -> jobs.stop("a", segment, null));
    assertEquals(
        "job a's consumer failed (exit 3); see " + segment.resolve("a.log"), e.getMessage());
  }

  @Test
  void aJobThatEndsByItselfIsSeenEndedWithItsExitCode() throws Exception {
    start();
    launched.get(0).exitNow(ExitCodes.INCOMPLETE);
    assertEquals(OptionalInt.of(ExitCodes.INCOMPLETE), jobs.ended("a"));
    assertTrue(jobs.stop("a", segment, null), "an incomplete job stops without a failure");
  }

  @Test
  void aSavepointStopIsRestoredByTheJobsNextStartInTheSegmentOnly() throws Exception {
    scripts.add(
        written -> {
          assertEquals(StopMode.SAVEPOINT.flag() + "\n", written, "the mode on a line");
          Files.writeString(
              segment.resolve(RunFiles.jobDirectory("a")).resolve(RunFiles.SAVEPOINT),
              "file:/savepoints/sp-1\n");
          return ExitCodes.OK;
        });
    start();
    assertTrue(
        launched.get(0).command().stream()
            .anyMatch(a -> a.startsWith("--stateBackendStoragePath=")),
        "a savepointed job keeps its state in the run's directory");
    assertTrue(jobs.stop("a", segment, StopMode.SAVEPOINT));
    start();
    assertTrue(
        launched.get(1).command().contains("--savepointPath=file:/savepoints/sp-1"),
        launched.get(1).command().toString());
    assertFalse(
        Files.exists(segment.resolve(RunFiles.jobDirectory("a")).resolve(RunFiles.SAVEPOINT)),
        "read once");
    jobs.stop("a", segment, null);
    start();
    assertFalse(
        launched.get(2).command().stream().anyMatch(a -> a.startsWith("--savepointPath")),
        "a drain leaves nothing to restore");
  }

  @Test
  void aKilledJobIsStartedAgainFromTheCheckpointAndTheKilledLifeIsStopped() throws Exception {
    start();
    ScriptedProcess first = launched.get(0);
    Path checkpoint = segment.resolve("flink-state/a/job/chk-3");
    jobs.restart("a", checkpoint, "127.0.0.1:2", BIGQUERY, segment, cpu, null, Optional.empty());
    assertFalse(first.isAlive(), "the killed life is gone");
    ScriptedProcess second = launched.get(1);
    assertTrue(
        second.command().contains("--savepointPath=" + checkpoint.toUri()),
        second.command().toString());
    assertTrue(Files.exists(segment.resolve("a.1.log")), "the killed life's log is kept");
    assertEquals(second.pid(), jobs.pid("a"));
    assertTrue(jobs.stop("a", segment, null));
  }
}
