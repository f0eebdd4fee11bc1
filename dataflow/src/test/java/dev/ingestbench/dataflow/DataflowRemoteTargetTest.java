package dev.ingestbench.dataflow;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.consumer.ConsumerConfig;
import dev.ingestbench.contracts.StopMode;
import dev.ingestbench.contracts.job.WriteMethod;
import dev.ingestbench.harness.spec.JobLabels;
import dev.ingestbench.scenario.JobConfig;
import dev.ingestbench.scenario.Scenario;
import dev.ingestbench.scenario.ScenarioFile;
import dev.ingestbench.scenario.ScenarioPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the Dataflow target refuses before anything starts, each refusal with a scenario it must
 * refuse and one it must let through, and the labels its jobs' results carry (the consumer's own
 * defaults, as Dataflow's workers resolve them).
 */
class DataflowRemoteTargetTest {
  private static final GcpSettings GCP =
      new GcpSettings(
          "my-project",
          "asia-southeast1",
          "my-bucket",
          "ingestbench",
          "taxi_rides",
          StopMode.CANCEL,
          Duration.ofSeconds(30),
          GcpSettings.DATAFLOW_ENDPOINT,
          GcpSettings.BIGQUERY_ENDPOINT,
          GcpSettings.MONITORING_ENDPOINT,
          "",
          false);

  private static final String HEAD =
      "name: s\nsource: {kind: pubsub, topic: taxi-rides}\npublish: {messages: 1000, backlog: 1000}\n";

  @TempDir Path dir;

  @Test
  void aPlainStagedPubsubScenarioIsAccepted() throws Exception {
    Scenario s = load(HEAD + "jobs: {a: {}}\nstages:\n  - {name: one, start: [a], hold: 5s}\n");
    assertDoesNotThrow(() -> target().refuseUnsupported(dir.resolve("s.yaml"), s));
  }

  @Test
  void everyStageKindDataflowCannotRunIsRefusedNamingTheKeyAndTheFix() throws Exception {
    assertRefused(
        "name: s\nsource: {kind: kafka, topic: taxi-rides}\npublish: {messages: 1000, backlog: 1000}\n"
            + "jobs: {a: {}}\nstages:\n  - {name: one, start: [a], hold: 5s}\n",
        "a Kafka scenario runs locally (--target local)");
    assertRefused(
        HEAD + "jobs: {a: {}, b: {}}\nunordered: {jobs: [a, b], iterations: 2}\n",
        "--target dataflow runs ordered stages");
    assertRefused(
        HEAD
            + "jobs: {a: {}}\nstages:\n  - {name: one, start: [a], hold: 5s}\n"
            + "  - {name: load, pubsub_load: {rate: 100, duration: 5s}}\n",
        "a pubsub_load stage measures the client of the machine that runs it");
    assertRefused(
        HEAD + "jobs: {a: {}}\nstages:\n  - {name: search, find_max_rate: {job: a}}\n",
        "a find_max_rate stage searches with a local round");
    assertRefused(
        HEAD
            + "jobs: {a: {}, b: {}}\nstages:\n  - {name: one, start: [a, b], hold: 5s}\n"
            + "  - {name: two, stop: [a], stop_with: savepoint, hold: 5s}\n",
        "stages.two.stop_with: savepoint is Flink's stop-with-savepoint and Dataflow has none");
    assertRefused(
        HEAD + "jobs: {a: {}}\nstages:\n  - {name: one, start: [a], hold: 1m, crash_every: 20s}\n",
        "stages.one.crash_every kills a local consumer's JVM");
  }

  @Test
  void aJobThatSetsNothingIsLabelledWithTheConsumersDefaultsAsDataflowRunsIt() throws Exception {
    Scenario s = load(HEAD + "jobs: {a: {}}\nstages:\n  - {name: one, start: [a], hold: 5s}\n");
    ScenarioPlan plan = ScenarioPlan.of(s, 1, 0);
    ConsumerConfig a = new DataflowLaunches(plan, GCP, "run-1").consumerConfig("a");
    Map<String, String> labels = JobLabels.of(a, plan.messageSize(), null, null);
    assertEquals("exactly-once", labels.get("write_method"), "the consumer's default");
    assertEquals("1", labels.get("triggering_frequency"), "exactly-once's default frequency");
    assertEquals("0", labels.get("streams"), "Dataflow chooses (Streaming Engine)");
    assertEquals("pubsub", labels.get("source"));
    assertFalse(labels.containsKey("workers"), "the job set no workers: " + labels);
  }

  @Test
  void aJobTheConsumerWouldRefuseIsRefusedBeforeLaunchNamingTheJob() throws Exception {
    // A scenario file refuses streams with at-least-once as it is read (ScenarioFileTest); a spec
    // built otherwise (a round's) must still be refused by the target before it launches anything.
    Scenario file = load(HEAD + "jobs: {a: {}}\nstages:\n  - {name: one, start: [a], hold: 5s}\n");
    Scenario s =
        new Scenario(
            file.name(),
            file.description(),
            file.source(),
            file.publish(),
            null,
            Map.of(
                "a",
                new JobConfig(
                    WriteMethod.AT_LEAST_ONCE,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    4,
                    null,
                    null,
                    null,
                    null)),
            file.limits(),
            file.stages(),
            null);
    ScenarioPlan plan = ScenarioPlan.of(s, 1, 0);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new DataflowLaunches(plan, GCP, "run-1").consumerConfig("a"));
    assertTrue(e.getMessage().startsWith("jobs.a: the consumer cannot run"), e.getMessage());
    assertTrue(e.getMessage().contains("--numStorageWriteApiStreams=4"), e.getMessage());
  }

  private DataflowRemoteTarget target() {
    return new DataflowRemoteTarget(GCP);
  }

  private Scenario load(String yaml) throws Exception {
    Path file = Files.writeString(dir.resolve("s.yaml"), yaml);
    return ScenarioFile.load(file);
  }

  private void assertRefused(String yaml, String expected) throws Exception {
    Scenario s = load(yaml);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> target().refuseUnsupported(dir.resolve("s.yaml"), s));
    assertTrue(e.getMessage().contains(expected), e.getMessage());
  }
}
