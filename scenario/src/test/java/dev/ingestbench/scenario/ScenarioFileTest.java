package dev.ingestbench.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.job.JobSink;
import dev.ingestbench.contracts.job.RowEncoding;
import dev.ingestbench.contracts.job.RowFormat;
import dev.ingestbench.contracts.job.TableSkew;
import dev.ingestbench.contracts.job.WriteMethod;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioFileTest {
  private static final Path SHIPPED = Path.of("..", "scenarios");

  private static final String GOOD =
      """
      name: two-jobs
      source: {kind: pubsub, topic: rides}
      publish: {messages: 1000, message_size: 500, backlog: 1000}
      job_defaults: {write_method: at-least-once, destination_tables: 2}
      jobs:
        a: {}
        b: {destination_tables: 4}
      stages:
        - {name: a-alone, start: [a], hold: 90s}
        - {name: a-and-b, start: [b], until: steady, max: 10m}
        - {name: b-alone, stop: [a], until: drained, max: 1h}
      """;

  @Test
  void everyShippedScenarioLoads() throws Exception {
    List<Path> files;
    try (Stream<Path> s = Files.list(SHIPPED)) {
      files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
    assertEquals(
        14,
        files.size(),
        "six published rounds, round 6 with a shared group, write-method-ab, savepoint-restore,"
            + " crash-restore, max-rate-write-methods, max-rate-kafka, destination-scaling and its"
            + " quick subset: "
            + files);
    for (Path file : files) {
      Scenario scenario = ScenarioFile.load(file);
      assertEquals(
          file.getFileName().toString().replace(".yaml", ""),
          scenario.name(),
          "name matches the file");
    }
    Scenario tables = ScenarioFile.load(SHIPPED.resolve("destination-scaling.yaml"));
    assertEquals(35, tables.unordered().jobs().size());
    assertEquals(
        new TableSkew(1.1), tables.jobs().get("alo-10000-zipf").tableSkew(), "a quoted zipf:S");
    assertEquals(10_000, tables.jobs().get("pool-max-10000-zipf").maxConnectionPoolConnections());
    Scenario quick = ScenarioFile.load(SHIPPED.resolve("destination-scaling-quick.yaml"));
    assertEquals(8, quick.unordered().jobs().size());
    assertEquals(3, quick.unordered().iterations());
    Scenario ab = ScenarioFile.load(SHIPPED.resolve("write-method-ab.yaml"));
    assertEquals(5, ab.unordered().iterations());
    Scenario max = ScenarioFile.load(SHIPPED.resolve("max-rate-write-methods.yaml"));
    assertTrue(max.stages().stream().allMatch(Scenario.Stage::isMaxRateSearch));
    Scenario shared = ScenarioFile.load(SHIPPED.resolve("round-6-kafka-shared-group.yaml"));
    assertEquals("shared", shared.source().consumerGroups());
    assertEquals("avro", shared.publish().messageFormat());
  }

  @Test
  void kafkaKeysAreCheckedWithTheirFix(@TempDir Path dir) throws Exception {
    String kafka =
        GOOD.replace(
                "source: {kind: pubsub, topic: rides}",
                "source: {kind: kafka, topic: rides, partitions: 0,"
                    + " consumer_groups: half, subscriptions: [x, y]}")
            .replace("message_size: 500,", "message_format: avro, message_size: 50,");
    List<String> p =
        assertThrows(ScenarioException.class, () -> ScenarioFile.load(write(dir, kafka)))
            .problems();
    assertTrue(
        p.stream().anyMatch(x -> x.startsWith("source.partitions: 0 must be 1 or more")),
        p.toString());
    assertTrue(
        p.stream().anyMatch(x -> x.startsWith("source.consumer_groups: 'half' is not known")),
        p.toString());
    assertTrue(
        p.stream().anyMatch(x -> x.startsWith("source.subscriptions: Kafka has no subscriptions")),
        p.toString());
    assertTrue(
        p.stream()
            .anyMatch(
                x ->
                    x.startsWith("publish.message_size: 50 bytes is below")
                        && x.contains("use 88")),
        p.toString());
    String pubsubWithPartitions =
        GOOD.replace(
            "source: {kind: pubsub, topic: rides}",
            "source: {kind: pubsub, topic: rides, partitions: 8}");
    assertTrue(
        only(dir, pubsubWithPartitions)
            .startsWith("source: partitions and consumer_groups are for kind: kafka"));
    String load =
        GOOD.replace("source: {kind: pubsub, topic: rides}", "source: {kind: kafka, topic: rides}")
            .replace(
                "  - {name: a-alone, start: [a], hold: 90s}",
                "  - {name: capacity, pubsub_load: {rate: 1000}}\n  - {name: a-alone, start: [a], hold: 90s}");
    assertTrue(
        only(dir, load).startsWith("stages[0].pubsub_load: measures a Pub/Sub source"), load);
  }

  @Test
  void aMaxRateStageIsCheckedWithItsFix(@TempDir Path dir) throws Exception {
    String search =
        GOOD.replace(
            "  - {name: a-alone, start: [a], hold: 90s}",
            "  - {name: max, find_max_rate: {job: a, latency_slo: 5s, probe_duration: 30s,"
                + " max_probes: 6}}\n  - {name: a-alone, start: [a], hold: 90s}");
    ScenarioPlan plan = ScenarioPlan.of(ScenarioFile.load(write(dir, search)), 1, 0);
    PlannedStage st = plan.stages().get(0);
    assertTrue(st.isMaxRateSearch());
    assertEquals("a", st.search().job());
    assertEquals(
        List.of(
            "--find-max-rate",
            "--latency-slo",
            "5s",
            "--probe-duration",
            "30s",
            "--max-probes",
            "6"),
        st.search().args());
    assertTrue(st.condition().startsWith("max-rate a --find-max-rate"), st.condition());
    assertTrue(st.running().isEmpty());
    String bad =
        GOOD.replace(
            "  - {name: a-alone, start: [a], hold: 90s}",
            "  - {name: max, start: [a], find_max_rate: {job: z, latency_slo: 5 seconds, probes: 3,"
                + " max_probes: many}}\n  - {name: a-alone, start: [a], hold: 90s}");
    List<String> p =
        assertThrows(ScenarioException.class, () -> ScenarioFile.load(write(dir, bad))).problems();
    for (String expected :
        List.of(
            "stages[0]: a find_max_rate stage runs a search and nothing else",
            "stages[0].find_max_rate.job: 'z' is not a job",
            "stages[0].find_max_rate.latency_slo: '5 seconds' is not a duration",
            "stages[0].find_max_rate.probes: is not a key of find_max_rate",
            "stages[0].find_max_rate.max_probes: 'many' is not a count")) {
      assertTrue(p.stream().anyMatch(x -> x.startsWith(expected)), expected + " in " + p);
    }
    String kafka =
        search.replace(
            "source: {kind: pubsub, topic: rides}", "source: {kind: kafka, topic: rides}");
    // A Kafka scenario searches as round --find-max-rate --source kafka does.
    assertEquals(
        "a",
        ScenarioPlan.of(ScenarioFile.load(write(dir, kafka)), 1, 0).stages().get(0).search().job());
  }

  /**
   * Names that reach a shell line (--dry-run's gcloud commands) or a path are checked against their
   * service's rules.
   */
  @Test
  void namesThatWouldReachAShellAreRefusedWithTheRule(@TempDir Path dir) throws Exception {
    String bad =
        GOOD.replace(
                "source: {kind: pubsub, topic: rides}",
                "source: {kind: pubsub, topic: 'rides; rm -rf ~', subscriptions: ['../x', 'goog-sub']}")
            .replace(
                "job_defaults: {write_method: at-least-once, destination_tables: 2}",
                "job_defaults: {write_method: at-least-once, destination_tables: 2, machine_type: 'n2-standard-4 --impersonate-service-account=x'}");
    List<String> p =
        assertThrows(ScenarioException.class, () -> ScenarioFile.load(write(dir, bad))).problems();
    assertTrue(
        p.stream()
            .anyMatch(x -> x.startsWith("source.topic: 'rides; rm -rf ~' is not a topic name")),
        p.toString());
    assertTrue(
        p.stream()
            .anyMatch(x -> x.startsWith("source.subscriptions: '../x' is not a subscription name")),
        p.toString());
    assertTrue(
        p.stream().anyMatch(x -> x.startsWith("source.subscriptions: 'goog-sub' is not")),
        p.toString());
    assertTrue(
        p.stream().anyMatch(x -> x.startsWith("jobs.a.machine_type: 'n2-standard-4 --impersonate")),
        p.toString());
    String fine =
        GOOD.replace(
            "job_defaults: {write_method: at-least-once, destination_tables: 2}",
            "job_defaults: {write_method: at-least-once, destination_tables: 2, machine_type: custom-8-32768}");
    ScenarioFile.load(write(dir, fine));
  }

  @Test
  void jobDefaultsApplyUnderEachJobsOwnKeys(@TempDir Path dir) throws Exception {
    Scenario s = ScenarioFile.load(write(dir, GOOD));
    assertEquals(2, s.resolvedJobs().get("a").destinationTables());
    assertEquals(4, s.resolvedJobs().get("b").destinationTables());
    assertEquals(WriteMethod.AT_LEAST_ONCE, s.resolvedJobs().get("b").writeMethod());
  }

  @Test
  void anUnknownKeyIsNamedWithTheKnownOnes(@TempDir Path dir) throws Exception {
    String problem = only(dir, GOOD.replace("job_defaults: {", "job_defaults: {write_methd: x, "));
    assertTrue(problem.startsWith("job_defaults: unknown key 'write_methd' (line 4)"), problem);
    assertTrue(problem.contains("write_method"), "lists the known keys: " + problem);
  }

  @Test
  void aValueOfTheWrongTypeNamesItsKey(@TempDir Path dir) throws Exception {
    String problem =
        only(dir, GOOD.replace("b: {destination_tables: 4}", "b: {destination_tables: four}"));
    assertTrue(problem.startsWith("jobs.b.destination_tables:"), problem);
  }

  @Test
  void stagesMustStartAndStopJobsInAnOrderThatCanRun(@TempDir Path dir) throws Exception {
    String problem = only(dir, GOOD.replace("stop: [a]", "stop: [c]"));
    assertTrue(problem.startsWith("stages[2].stop: 'c' is not running"), problem);
    problem = only(dir, GOOD.replace("hold: 90s", "hold: 90 seconds"));
    assertTrue(
        problem.startsWith("stages[0].hold: '90 seconds' is not a duration; write e.g. 90s"),
        problem);
    problem = only(dir, GOOD.replace("until: drained, max: 1h", "until: drained"));
    assertTrue(problem.startsWith("stages[2].max: until needs the longest it may wait"), problem);
  }

  @Test
  void everyProblemIsReportedAtOnceWithItsFix(@TempDir Path dir) throws Exception {
    String bad =
        GOOD.replace("backlog: 1000}", "backlog: 500}")
                .replace(
                    "b: {destination_tables: 4}",
                    "b: {write_method: exactly-once, connection_pool: true}")
            + "unordered: {jobs: [a], iterations: 0}\n";
    ScenarioException e =
        assertThrows(ScenarioException.class, () -> ScenarioFile.load(write(dir, bad)));
    List<String> p = e.problems();
    assertTrue(
        p.stream()
            .anyMatch(
                x -> x.startsWith("publish.rate: the 500 messages after the backlog need a rate")),
        p.toString());
    assertTrue(
        p.stream()
            .anyMatch(
                x ->
                    x.startsWith(
                        "jobs.b.connection_pool: Beam pools connections only for at-least-once")),
        p.toString());
    assertTrue(p.stream().anyMatch(x -> x.startsWith("stages: give either stages")), p.toString());
    assertTrue(
        p.stream().anyMatch(x -> x.startsWith("unordered.iterations: 0 must be 1 or more")),
        p.toString());
    assertTrue(e.getMessage().startsWith(dir.resolve("s.yaml").toString()), "names the file");
  }

  @Test
  void aMissingOrEmptyFileSaysWhatToGive(@TempDir Path dir) {
    assertTrue(
        assertThrows(ScenarioException.class, () -> ScenarioFile.load(dir.resolve("nope.yaml")))
            .problems()
            .get(0)
            .startsWith("no such file"));
    assertTrue(
        assertThrows(ScenarioException.class, () -> ScenarioFile.load(write(dir, "")))
            .problems()
            .get(0)
            .startsWith("the file is empty"));
  }

  @Test
  void aJobSettingAcceptsTheSpellingsRoundsFlagsAcceptAndIsTyped(@TempDir Path dir)
      throws Exception {
    Scenario s =
        ScenarioFile.load(
            write(
                dir,
                GOOD.replace(
                    "b: {destination_tables: 4}",
                    "b: {write_method: STORAGE_WRITE_API, row_format: TYPED, row_encoding: proto}")));
    JobConfig b = s.resolvedJobs().get("b");
    assertEquals(WriteMethod.EXACTLY_ONCE, b.writeMethod());
    assertEquals(RowFormat.TYPED, b.rowFormat());
    assertEquals(RowEncoding.PROTO, b.rowEncoding());
    assertEquals(
        WriteMethod.AT_LEAST_ONCE,
        ScenarioFile.load(
                write(
                    dir,
                    GOOD.replace(
                        "b: {destination_tables: 4}",
                        "b: {write_method: storage_api_at_least_once}")))
            .resolvedJobs()
            .get("b")
            .writeMethod());
  }

  @Test
  void aJobSettingThatIsNoneOfItsValuesIsNamedWithItsKeyLineAndTheValuesToUse(@TempDir Path dir)
      throws Exception {
    assertEquals(
        "jobs.b.write_method: 'sometimes' is not known; use exactly-once (or STORAGE_WRITE_API) or"
            + " at-least-once (or STORAGE_API_AT_LEAST_ONCE) (line 7)",
        only(dir, GOOD.replace("b: {destination_tables: 4}", "b: {write_method: sometimes}")));
    assertEquals(
        "jobs.b.row_encoding: 'avro' is not known; use one of tablerow, beam-row, proto (line 7)",
        only(dir, GOOD.replace("b: {destination_tables: 4}", "b: {row_encoding: avro}")));
  }

  @Test
  void aSettingTheWriteMethodIgnoresIsRefusedNamingItsKeyAndTheDefaultItMetWhenUnset(
      @TempDir Path dir) throws Exception {
    assertEquals(
        "jobs.b.streams: at-least-once always writes to the default stream; set write_method:"
            + " exactly-once or remove streams",
        only(dir, GOOD.replace("b: {destination_tables: 4}", "b: {streams: 4}")));
    assertEquals(
        "jobs.b.triggering_frequency: at-least-once appends rows as they arrive, never on a timer;"
            + " set write_method: exactly-once or remove triggering_frequency",
        only(dir, GOOD.replace("b: {destination_tables: 4}", "b: {triggering_frequency: 5}")));
    assertEquals(
        "jobs.b.connection_pool: Beam pools connections only for at-least-once, whose default"
            + " stream it multiplexes; set write_method: at-least-once or remove connection_pool"
            + " (write_method is exactly-once by default)",
        only(
            dir,
            GOOD.replace("job_defaults: {write_method: at-least-once, ", "job_defaults: {")
                .replace("b: {destination_tables: 4}", "b: {connection_pool: true}")));
  }

  @Test
  void aStagesConsumerKillIsPlannedWithItsTimesAndBadTimesAreNamed(@TempDir Path dir)
      throws Exception {
    ScenarioPlan plan =
        ScenarioPlan.of(
            ScenarioFile.load(
                write(
                    dir,
                    GOOD.replace(
                        "{name: a-and-b, start: [b], until: steady, max: 10m}",
                        "{name: a-and-b, start: [b], until: steady, max: 10m, kill_consumer_at: 30s,"
                            + " crash_every: 20s}"))),
            1,
            0);
    StageFaults faults = plan.stages().get(1).faults();
    assertEquals(java.time.Duration.ofSeconds(30), faults.killConsumerAt());
    assertEquals(java.time.Duration.ofSeconds(20), faults.crashEvery());
    assertEquals(StageFaults.NONE, plan.stages().get(0).faults());
    assertTrue(plan.killed("a") && plan.killed("b"), "both run in the killing stage");
    assertEquals(
        "stages[1].kill_consumer_at: 'soon' is not a duration of 1 second or more; write e.g. 30s,"
            + " the time into the stage at which every running job's consumer is killed",
        only(
            dir,
            GOOD.replace(
                "{name: a-and-b, start: [b], until: steady, max: 10m}",
                "{name: a-and-b, start: [b], until: steady, max: 10m, kill_consumer_at: soon}")));
    assertTrue(
        only(
                dir,
                GOOD.replace(
                    "{name: a-and-b, start: [b], until: steady, max: 10m}",
                    "{name: a-and-b, start: [b], until: steady, max: 10m, crash_every: 2s}"))
            .startsWith("stages[1].crash_every: '2s' is not a duration of 5 seconds or more"));
    assertEquals(
        "stages[0].crash_every: 90s is not within the stage, which lasts at most 90s: no life would"
            + " live that long in it to be killed; give a shorter interval",
        only(
            dir,
            GOOD.replace(
                "{name: a-alone, start: [a], hold: 90s}",
                "{name: a-alone, start: [a], hold: 90s, crash_every: 90s}")));
    assertEquals(
        "stages[0].kill_consumer_at: 2m is not within the stage, which lasts at most 90s: the kill"
            + " would never come; give an earlier time",
        only(
            dir,
            GOOD.replace(
                "{name: a-alone, start: [a], hold: 90s}",
                "{name: a-alone, start: [a], hold: 90s, kill_consumer_at: 2m}")));
  }

  /**
   * A planned stop and restore inside a stage: planned with its time, its jobs' savepoints kept,
   * described in the file's terms; a bad time, a kill beside it and a stage of its own kind
   * refused.
   */
  @Test
  void aStagesSavepointRestartIsPlannedAndItsConflictsNamed(@TempDir Path dir) throws Exception {
    String saving =
        GOOD.replace(
            "{name: a-and-b, start: [b], until: steady, max: 10m}",
            "{name: a-and-b, start: [b], until: steady, max: 10m, savepoint_at: 30s}");
    ScenarioPlan plan = ScenarioPlan.of(ScenarioFile.load(write(dir, saving)), 1, 0);
    StageFaults faults = plan.stages().get(1).faults();
    assertEquals(java.time.Duration.ofSeconds(30), faults.savepointAt());
    assertTrue(faults.savesAndRestores() && faults.any() && !faults.killsConsumers());
    assertEquals(
        "consumers stopped with a savepoint and restored: savepoint_at 30s", faults.describe());
    assertTrue(
        plan.savepointed("a") && plan.savepointed("b"), "their savepoints are kept in the run");
    assertTrue(
        only(dir, saving.replace("savepoint_at: 30s", "savepoint_at: later"))
            .startsWith("stages[1].savepoint_at: 'later' is not a duration of 1 second or more"));
    assertTrue(
        only(dir, saving.replace("savepoint_at: 30s", "savepoint_at: 30s, kill_consumer_at: 40s"))
            .startsWith("stages[1].savepoint_at: a stage either stops its consumers with a"));
    assertTrue(
        only(dir, saving.replace("b: {destination_tables: 4}", "b: {sink: in-process}"))
            .startsWith("stages[1].savepoint_at: stops and restarts b, which writes in-process"));
  }

  @Test
  void aStagesTaskManagerKillIsPlannedNamedInItsConditionAndBadTimesAreNamed(@TempDir Path dir)
      throws Exception {
    ScenarioPlan plan =
        ScenarioPlan.of(
            ScenarioFile.load(
                write(
                    dir,
                    GOOD.replace(
                        "{name: a-and-b, start: [b], until: steady, max: 10m}",
                        "{name: a-and-b, start: [b], until: steady, max: 10m,"
                            + " kill_taskmanager_at: 20s}"))),
            1,
            0);
    StageFaults faults = plan.stages().get(1).faults();
    assertEquals(java.time.Duration.ofSeconds(20), faults.killTaskManagerAt());
    assertTrue(faults.killsTaskManager() && !faults.killsConsumers());
    assertEquals(
        "until steady (max 10m); a TaskManager killed: kill_taskmanager_at 20s",
        plan.stages().get(1).condition());
    assertEquals("a-and-b", plan.firstTaskManagerKillingStage().orElseThrow().name());
    assertTrue(plan.firstKillingStage().isEmpty(), "no consumer is killed");
    assertFalse(plan.killed("a"), "a consumer keeps no checkpoints for a TaskManager kill");
    assertEquals(
        "stages[1].kill_taskmanager_at: '0s' is not a duration of 1 second or more; write e.g. 30s,"
            + " the time after every running job has written at which a TaskManager is killed",
        only(
            dir,
            GOOD.replace(
                "{name: a-and-b, start: [b], until: steady, max: 10m}",
                "{name: a-and-b, start: [b], until: steady, max: 10m, kill_taskmanager_at: 0s}")));
    assertEquals(
        "stages[0].kill_taskmanager_at: 90s is not within the stage, which lasts at most 90s: the"
            + " kill would never come; give an earlier time",
        only(
            dir,
            GOOD.replace(
                "{name: a-alone, start: [a], hold: 90s}",
                "{name: a-alone, start: [a], hold: 90s, kill_taskmanager_at: 90s}")));
  }

  /** A stage's live_profile: steps of publish.rate from its start, checked as the file is read. */
  @Test
  void aStageStepsTheLiveRateWithinItself(@TempDir Path dir) throws Exception {
    String live =
        GOOD.replace(
            "publish: {messages: 1000, message_size: 500, backlog: 1000}",
            "publish: {messages: 100000, backlog: 1000, rate: 500}");
    ScenarioPlan plan =
        ScenarioPlan.of(
            ScenarioFile.load(
                write(
                    dir,
                    live.replace(
                        "{name: a-alone, start: [a], hold: 90s}",
                        "{name: a-alone, start: [a], hold: 90s, live_profile: '1x:30s,3x:30s'}"))),
            1,
            0);
    assertEquals("1x:30s,3x:30s", plan.stages().get(0).liveProfile().toString());
    assertEquals(null, plan.stages().get(1).liveProfile(), "a stage without one: the rate as is");
    assertEquals(
        "hold 1m 30s; live rate stepped: 1x:30s,3x:30s",
        plan.stages().get(0).condition(),
        "its status and report say so");
    assertEquals("a-alone", plan.firstLiveProfileStage().orElseThrow().name());
    assertTrue(
        only(dir, live.replace("hold: 90s}", "hold: 90s, live_profile: 3y}"))
            .startsWith("stages[0].live_profile: live_profile 3y: '3y' is not a step"));
    assertEquals(
        "stages[0].live_profile: 1x:60s,2x:60s lasts 2m, longer than the stage, which lasts at most"
            + " 90s: its last steps would never come; give shorter steps or a longer stage",
        only(dir, live.replace("hold: 90s}", "hold: 90s, live_profile: '1x:60s,2x:60s'}")));
    assertEquals(
        "stages[0].live_profile: steps the live rate (its 1x is publish.rate), and the scenario"
            + " publishes no live messages; give publish.rate and a backlog below publish.messages",
        only(dir, GOOD.replace("hold: 90s}", "hold: 90s, live_profile: '2x:30s'}")));
    assertTrue(
        only(
                dir,
                GOOD.replace("backlog: 1000}", "backlog: 1000, rate: 200}")
                    .replace("hold: 90s}", "hold: 90s, live_profile: '2x:30s'}"))
            .contains("the scenario publishes no live messages"),
        "a rate with every message in the backlog: still nothing live to step");
    String search =
        live.replace(
            "  - {name: a-alone, start: [a], hold: 90s}",
            "  - {name: max, find_max_rate: {job: a}, live_profile: '2x:30s'}\n"
                + "  - {name: a-alone, start: [a], hold: 90s}");
    assertTrue(
        only(dir, search)
            .startsWith("stages[0]: a find_max_rate stage runs a search and nothing else"),
        "a stage of its own kind takes no live_profile");
  }

  /**
   * A job writing into its own consumer's JVM: typed, inherited from job_defaults, and refused
   * where its rows would not outlive what the scenario does to that JVM, or where the emulator
   * process's settings could not reach it.
   */
  @Test
  void aJobThatWritesInProcessIsRefusedWhereItsRowsWouldNotOutliveItsJvm(@TempDir Path dir)
      throws Exception {
    String inProcess = GOOD.replace("b: {destination_tables: 4}", "b: {sink: in-process}");
    ScenarioPlan plan = ScenarioPlan.of(ScenarioFile.load(write(dir, inProcess)), 1, 0);
    assertEquals(JobSink.IN_PROCESS, plan.jobs().get("b").resolvedSink());
    assertEquals(JobSink.EMULATOR, plan.jobs().get("a").resolvedSink(), "the default");
    assertTrue(
        only(dir, GOOD.replace("b: {destination_tables: 4}", "b: {sink: inprocess}"))
            .startsWith("jobs.b.sink: 'inprocess' is not known; use one of emulator, in-process"));
    assertTrue(
        only(
                dir,
                inProcess.replace(
                    "  - {name: b-alone,",
                    "  - {name: b-again, stop: [b], hold: 1s}\n  - {name: b-back, start: [b], hold: 1s}\n  - {name: b-alone,"))
            .startsWith(
                "stages[3].start: b writes in-process (jobs.b.sink): the rows of its first"),
        "started a second time");
    assertTrue(
        only(
                dir,
                inProcess.replace(
                    "until: steady, max: 10m}", "until: steady, max: 10m, kill_consumer_at: 30s}"))
            .startsWith("stages[1].kill_consumer_at: kills b, which writes in-process"),
        "killed");
    assertTrue(
        only(
                dir,
                inProcess.replace(
                    "until: drained, max: 1h}", "until: drained, max: 1h, crash_every: 30s}"))
            .startsWith("stages[2].crash_every: kills b, which writes in-process"),
        "crashed");
    ScenarioFile.load(
        write(
            dir,
            inProcess.replace(
                "  - {name: a-alone, start: [a], hold: 90s}",
                "  - {name: a-alone, start: [a], hold: 90s, kill_consumer_at: 30s}")));
    assertTrue(
        only(dir, inProcess + "limits: {max_connections: 10}\n")
            .startsWith(
                "jobs.b.sink: in-process writes to a BigQuery emulator inside the job's JVM"),
        "limits");
    ScenarioFile.load(write(dir, inProcess + "limits: {max_dead_letters: 3}\n"));
    assertTrue(
        only(
                dir,
                inProcess.replace(
                    "  - {name: b-alone, stop: [a],",
                    "  - {name: b-alone, stop: [b], stop_with: savepoint,"))
            .startsWith("stages[2].stop_with: saves b, which writes in-process"),
        "a savepoint nothing can restore");
    String search =
        inProcess.replace(
            "  - {name: a-alone, start: [a], hold: 90s}",
            "  - {name: max, find_max_rate: {job: b}}\n  - {name: a-alone, start: [a], hold: 90s}");
    assertTrue(
        only(dir, search).startsWith("stages[0].find_max_rate.job: b writes in-process"), "search");
  }

  /** Many tables are bounded, and the pool's size is checked with the pool. */
  @Test
  void manyTablesAndThePoolsSizeAreCheckedWithTheirFix(@TempDir Path dir) throws Exception {
    assertTrue(
        only(dir, GOOD.replace("b: {destination_tables: 4}", "b: {destination_tables: 10001}"))
            .startsWith("jobs.b.destination_tables: 10001 must be 1 to 10,000"));
    assertTrue(
        only(
                dir,
                GOOD.replace(
                    "b: {destination_tables: 4}",
                    "b: {destination_tables: 4, connection_pool: true,"
                        + " max_connection_pool_connections: 1}"))
            .startsWith("jobs.b.max_connection_pool_connections: 1 must be 2 or more"));
    assertTrue(
        only(
                dir,
                GOOD.replace(
                    "b: {destination_tables: 4}",
                    "b: {destination_tables: 4, max_connection_pool_connections: 100}"))
            .startsWith("jobs.b.max_connection_pool_connections: sizes Beam's connection pool"));
    Scenario skewed =
        ScenarioFile.load(
            write(
                dir,
                GOOD.replace(
                    "b: {destination_tables: 4}",
                    "b: {destination_tables: 4, table_skew: 'zipf:1.1', create_tables: ahead}")));
    assertEquals(new TableSkew(1.1), skewed.resolvedJobs().get("b").tableSkew());
    assertTrue(
        only(dir, GOOD.replace("b: {destination_tables: 4}", "b: {table_skew: 'zipf:0'}"))
            .contains("is not a skew: use uniform, or zipf:S"));
  }

  /** The emulator's quota modes and many-tables limits as keys, each bad value named. */
  @Test
  void emulatorLimitKeysAreCheckedWithTheirFix(@TempDir Path dir) throws Exception {
    Scenario s =
        ScenarioFile.load(
            write(
                dir,
                GOOD
                    + "limits: {quota_mode: two-tier, quota_mb_per_second: 1,"
                    + " quota_window_seconds: 60, cell_quota_mb_per_second: 2,"
                    + " cell_quota_window_seconds: 10, tables_api_quota: 50,"
                    + " create_write_stream_threshold: 20, create_write_stream_slowdown_ms: 100}\n"));
    assertEquals("two-tier", s.limits().quotaMode());
    assertEquals(2.0, s.limits().cellQuotaMbPerSecond());
    assertEquals(50.0, s.limits().tablesApiQuota());
    assertTrue(s.limits().setsEmulatorLimits());
    assertFalse(Scenario.Limits.maxDeadLetters(3L).setsEmulatorLimits());
    assertTrue(
        only(dir, GOOD + "limits: {quota_mode: burst}\n")
            .startsWith("limits.quota_mode: 'burst' is not a quota mode"));
    assertTrue(
        only(dir, GOOD + "limits: {cell_quota_mb_per_second: 2}\n").contains("add it or drop them"),
        "a cell quota without two-tier");
    assertTrue(
        only(
                dir,
                GOOD
                    + "limits: {quota_mode: two-tier, quota_window_seconds: 10,"
                    + " cell_quota_window_seconds: 10}\n")
            .startsWith("limits.cell_quota_window_seconds: must be above 0 and shorter"));
    assertTrue(
        only(dir, GOOD + "limits: {quota_mode: two-tier, quota_window_seconds: 8}\n")
            .startsWith("limits.quota_window_seconds: must be longer than the cell's window"));
    assertTrue(
        only(dir, GOOD + "limits: {cell_quota_window_seconds: 5}\n")
            .startsWith("limits.cell_quota_window_seconds: cell_quota_mb_per_second and"));
    assertTrue(
        only(dir, GOOD + "limits: {tables_api_quota: 0.5}\n")
            .startsWith("limits.tables_api_quota: must be 0 (no limit) or 1"));
    assertTrue(
        only(dir, GOOD + "limits: {create_write_stream_slowdown_ms: 70000}\n")
            .startsWith("limits.create_write_stream_slowdown_ms: must be 0 to 60000"));
    assertTrue(
        only(dir, GOOD + "limits: {create_write_stream_threshold: -1}\n")
            .startsWith("limits.create_write_stream_threshold: must be 0"));
  }

  private static String only(Path dir, String yaml) throws IOException {
    ScenarioException e =
        assertThrows(ScenarioException.class, () -> ScenarioFile.load(write(dir, yaml)));
    assertEquals(1, e.problems().size(), e.getMessage());
    return e.problems().get(0);
  }

  private static Path write(Path dir, String yaml) throws IOException {
    return Files.writeString(dir.resolve("s.yaml"), yaml);
  }
}
