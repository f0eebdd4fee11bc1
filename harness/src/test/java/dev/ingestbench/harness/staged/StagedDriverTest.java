package dev.ingestbench.harness.staged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.contracts.StepStatus;
import dev.ingestbench.contracts.StopMode;
import dev.ingestbench.scenario.PlannedStage;
import dev.ingestbench.scenario.ScenarioFile;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.verification.Finding;
import dev.ingestbench.verification.JobCounts;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The staged driver and the verification policy without a process: a fake target whose jobs write,
 * drain, lose, duplicate and dead-letter exactly as each test says, on a clock that jumps ahead.
 */
class StagedDriverTest {
  private static final long PUBLISHED = 1_000;
  private static final String THREE_STAGES =
      """
      name: fake-two-jobs
      source: {kind: pubsub, topic: rides}
      publish: {messages: 1000, backlog: 1000}
      job_defaults: {write_method: exactly-once}
      jobs:
        a: {}
        b: {write_method: at-least-once}
      %s
      stages:
        - {name: a-alone, start: [a], hold: 20s}
        - {name: a-and-b, start: [b], hold: 20s}
        - {name: b-alone, stop: [a], until: drained, max: 1m}
      """;

  @TempDir Path root;

  /** Beside the run directory, as a scenario file is; removed with it. */
  @TempDir Path files;

  /**
   * What one fake job does: when it drains (seconds after it starts; never: 0) and its figures once
   * stopped.
   */
  record FakeJob(long drainsAfter, long accounted, long left, long duplicates, long deadLettered) {
    static FakeJob stoppedMidway(long accounted) {
      return new FakeJob(0, accounted, PUBLISHED - accounted, 0, 0);
    }

    static FakeJob drains(long after) {
      return new FakeJob(after, PUBLISHED, 0, 0, 0);
    }
  }

  /** A clock that moves only when the driver waits. */
  static final class FakeTicker implements Ticker {
    Instant now = Instant.parse("2026-11-24T10:00:00Z");

    @Override
    public Instant now() {
      return now;
    }

    @Override
    public void sleep(Duration duration) {
      now = now.plus(duration);
    }
  }

  /** Jobs that run in memory; every call the driver makes is recorded. */
  static final class FakeTarget implements StageTarget {
    final FakeTicker ticker;
    final Map<String, FakeJob> jobs;
    final List<String> calls = new ArrayList<>();
    String failToStart;
    final Map<String, Integer> exitOf = new HashMap<>();

    /**
     * Jobs fed as they read: 100 more messages every second, caught up with the feed at second 5
     * only.
     */
    final Set<String> fed = new HashSet<>();

    int loadTestExit = ExitCodes.OK;

    /** What its samples measure (a round's target: nothing). */
    Measures measures = Measures.EVERY_JOB_FIGURE;

    int ticks;

    /** The tick at which the target's own turn fails (a publisher it started failed); 0: never. */
    int tickFailsAt;

    /**
     * Every job shares one Kafka consumer group, which has read the whole topic from this tick on;
     * 0: no group.
     */
    int groupDrainsAtTick;

    FakeTarget(FakeTicker ticker, Map<String, FakeJob> jobs) {
      this.ticker = ticker;
      this.jobs = jobs;
    }

    /** The load-test stages' executor: 30 s of the fake clock, and a finding unless it passed. */
    LoadTestStage.Outcome loadTest(PlannedStage st, int segmentNo) {
      calls.add("load test " + st.name());
      Instant started = ticker.now();
      ticker.sleep(Duration.ofSeconds(30));
      return new LoadTestStage.Outcome(
          new StepStatus(
              st.marker(),
              st.name(),
              1,
              st.running(),
              st.start(),
              st.stop(),
              st.condition(),
              loadTestExit == ExitCodes.OK,
              started.toString(),
              ticker.now().toString(),
              segmentNo),
          List.of(),
          root(segmentNo),
          loadTestExit == ExitCodes.OK
              ? List.of()
              : List.of(
                  new Finding(
                      st.name(), LoadTestStage.JOB, Finding.Kind.LOAD_TEST, "lost 5 of 1,000")));
    }

    private static Path root(int segmentNo) {
      return Path.of("pubsub-load-" + segmentNo);
    }

    @Override
    public Measures measures() {
      return measures;
    }

    @Override
    public Segment open(int segmentNo, Path segment) {
      calls.add("open segment-" + segmentNo);
      return new Segment() {
        final Map<String, Instant> startedAt = new HashMap<>();
        final List<ScenarioSample> samples = new ArrayList<>();
        String stage = "";
        List<String> following = List.of();
        long sampledUpTo = ticker.now().getEpochSecond();

        @Override
        public void startJob(String stage, String job) throws IOException {
          calls.add("start " + job);
          if (job.equals(failToStart)) {
            throw new IOException("job " + job + "'s consumer failed (exit 3)");
          }
          startedAt.put(job, ticker.now());
        }

        @Override
        public boolean stopJob(String stage, String job, StopMode mode) {
          calls.add("stop " + job + (mode == null ? "" : " with " + mode.flag()));
          return startedAt.remove(job) != null;
        }

        private boolean drained(String job) {
          FakeJob j = jobs.get(job);
          return j.drainsAfter() > 0
              && startedAt.containsKey(job)
              && !ticker.now().isBefore(startedAt.get(job).plusSeconds(j.drainsAfter()));
        }

        /**
         * A drained job has ended with its exit code and its count; a running one has its latest
         * sample's count, or its group's.
         */
        @Override
        public JobReading read(String job) {
          Path log = Path.of(job + ".log");
          if (drained(job)) {
            return new JobReading(
                OptionalInt.of(exitOf.getOrDefault(job, ExitCodes.OK)),
                messagesFor(job),
                jobs.get(job).accounted(),
                false,
                log);
          }
          OptionalLong group = groupAccountedFor(job);
          long latest = 0;
          for (ScenarioSample s : samples()) {
            if (s.job().equals(job)) {
              latest = Math.max(latest, s.accountedFor());
            }
          }
          return new JobReading(
              OptionalInt.empty(),
              messagesFor(job),
              group.isPresent() ? group.getAsLong() : latest,
              group.isPresent(),
              log);
        }

        private long messagesFor(String job) {
          if (fed.contains(job) && startedAt.containsKey(job)) {
            return 1_000 + 100 * secondsRunning(job);
          }
          return 1_000; // every test scenario publishes 1,000
        }

        private long secondsRunning(String job) {
          return Duration.between(startedAt.get(job), ticker.now()).getSeconds();
        }

        /** What a fed job's latest sample says it accounted for. */
        private long fedAccounted(String job) {
          return secondsRunning(job) == 5 ? messagesFor(job) : messagesFor(job) - 500;
        }

        @Override
        public void tick() throws IOException {
          if (++ticks == tickFailsAt) {
            throw new IOException("the live-publisher failed (exit 1); see live-publisher.log");
          }
        }

        private OptionalLong groupAccountedFor(String job) {
          if (groupDrainsAtTick == 0) {
            return OptionalLong.empty();
          }
          return OptionalLong.of(ticks >= groupDrainsAtTick ? PUBLISHED : PUBLISHED / 2);
        }

        @Override
        public void follow(String stage, List<String> running) {
          samples();
          this.stage = stage;
          this.following = List.copyOf(running);
        }

        @Override
        public List<ScenarioSample> samples() {
          for (long s = sampledUpTo + 1; s <= ticker.now().getEpochSecond(); s++) {
            for (String job : following) {
              boolean writing = startedAt.containsKey(job) && !drained(job);
              long accounted =
                  fed.contains(job) && startedAt.containsKey(job) ? fedAccounted(job) : 0;
              samples.add(
                  new ScenarioSample(
                      s, stage, job, writing ? 100 : 0, writing ? 50_000 : 0, 1, 0.5, accounted));
            }
          }
          sampledUpTo = ticker.now().getEpochSecond();
          return List.copyOf(samples);
        }

        @Override
        public void awaitPublished() {
          calls.add("await published");
        }

        @Override
        public JobCounts count(String stage, String job, boolean exactlyOnce) {
          FakeJob j = jobs.get(job);
          return new JobCounts(
              stage,
              job,
              exactlyOnce,
              PUBLISHED,
              j.accounted() + j.duplicates(),
              j.accounted(),
              j.duplicates(),
              j.deadLettered(),
              j.accounted(),
              j.left(),
              null);
        }

        @Override
        public String unfinishedStreams() {
          return "7 row(s) were appended to 1 write stream(s) and never flushed or committed";
        }

        @Override
        public void close() {
          calls.add("close");
        }
      };
    }
  }

  private ScenarioPlan plan(String limits, String stagesYaml) throws Exception {
    String yaml = stagesYaml != null ? stagesYaml : String.format(THREE_STAGES, limits);
    Path file = Files.writeString(files.resolve("scenario.yaml"), yaml);
    return ScenarioPlan.of(ScenarioFile.load(file), 1, 1);
  }

  private StagedDriver driver(ScenarioPlan plan, FakeTarget target) throws Exception {
    RunDirectory dir = new RunDirectory(root);
    ScenarioRun run =
        new ScenarioRun(
            "run-1",
            plan.scenario().name(),
            "local",
            1,
            "sha",
            "2026-11-24T10:00:00Z",
            "test machine",
            2,
            Map.of());
    if (dir.existingRun().isEmpty()) {
      dir.start(run, files.resolve("scenario.yaml"));
    }
    Map<String, Map<String, String>> labels = new LinkedHashMap<>();
    plan.jobs()
        .forEach(
            (job, config) ->
                labels.put(
                    job,
                    Map.of(
                        "write_method",
                        config.writeMethod() == null
                            ? "exactly-once"
                            : config.writeMethod().flag())));
    return new StagedDriver(plan, dir, run, target, Duration.ofSeconds(5), target.ticker, labels)
        .withExecutors(
            new StageExecutors(
                new StageExecutor() {
                  @Override
                  public LoadTestStage.Outcome run(PlannedStage st, int segmentNo) {
                    return target.loadTest(st, segmentNo);
                  }

                  @Override
                  public void describe(PlannedStage st, PrintStream out) {}
                },
                null));
  }

  private int run(ScenarioPlan plan, Map<String, FakeJob> jobs) throws Exception {
    FakeTarget target = new FakeTarget(new FakeTicker(), jobs);
    StagedDriver driver = driver(plan, target);
    int exit = driver.run();
    last = driver;
    return exit;
  }

  private StagedDriver last;

  private double result(String stage, String job, String metric) throws IOException {
    return new RunDirectory(root)
        .readResults().stream()
            .filter(
                r -> r.stage().equals(stage) && r.job().equals(job) && r.metric().equals(metric))
            .mapToDouble(ResultRecord::value)
            .findFirst()
            .orElseThrow(() -> new AssertionError("no " + metric + " of " + job + " in " + stage));
  }

  @Test
  void everyJobAccountedForOrLeftExitsZeroAndRecordsEachJobsVerification() throws Exception {
    int exit =
        run(plan("", null), Map.of("a", FakeJob.stoppedMidway(600), "b", FakeJob.drains(15)));
    assertEquals(ExitCodes.OK, exit, last.verdict().findings().toString());
    assertEquals(2, last.verdict().judged());
    assertEquals(
        400, result("a-and-b", "a", "left"), "a's verification goes with the last stage it ran in");
    assertEquals(0, result("a-and-b", "a", "lost"));
    assertEquals(1_000, result("b-alone", "b", "published"));
    assertEquals(0, result("b-alone", "b", "lost"));
    assertEquals(0, result("b-alone", "b", "misrouted_rows"), "the local BigQuery's count");
  }

  @Test
  void oneJobsLossFailsTheRunEvenWhenAnotherJobCountedTheSameNumberTooMany() throws Exception {
    int exit =
        run(
            plan("", null),
            Map.of(
                "a", new FakeJob(0, 600, 393, 0, 0), // 7 neither written nor left
                "b", new FakeJob(15, 1_000, 7, 0, 0))); // 7 counted twice
    assertEquals(ExitCodes.INCOMPLETE, exit);
    Finding first = last.verdict().failuresFirst().get(0);
    assertEquals(Finding.Kind.LOST, first.kind());
    assertTrue(first.line().startsWith("stage a-and-b, job a: lost 7 of 1,000"), first.line());
    assertEquals(7, result("a-and-b", "a", "lost"), "never clamped, never turned into 'unread'");
    assertEquals(
        Finding.Kind.UNVERIFIED,
        last.verdict().failuresFirst().get(1).kind(),
        "b's surplus is a miscount");
  }

  @Test
  void duplicatesFailTheExactlyOnceJobOnly() throws Exception {
    assertEquals(
        ExitCodes.INCOMPLETE,
        run(plan("", null), Map.of("a", new FakeJob(0, 600, 400, 3, 0), "b", FakeJob.drains(15))));
    assertEquals(Finding.Kind.DUPLICATES, last.verdict().findings().get(0).kind());
  }

  @Test
  void duplicatesOfAnAtLeastOnceJobPass() throws Exception {
    assertEquals(
        ExitCodes.OK,
        run(
            plan("", null),
            Map.of("a", FakeJob.stoppedMidway(600), "b", new FakeJob(15, 1_000, 0, 3, 0))));
  }

  @Test
  void deadLettersAboveTheScenariosLimitFail() throws Exception {
    String limits = "limits: {max_dead_letters: 2}";
    assertEquals(
        ExitCodes.OK,
        run(
            plan(limits, null),
            Map.of("a", new FakeJob(0, 600, 400, 0, 2), "b", FakeJob.drains(15))));
    Files.walk(root)
        .sorted(Comparator.reverseOrder())
        .filter(p -> !p.equals(root))
        .forEach(p -> p.toFile().delete());
    assertEquals(
        ExitCodes.INCOMPLETE,
        run(
            plan(limits, null),
            Map.of("a", new FakeJob(0, 600, 400, 0, 3), "b", FakeJob.drains(15))));
    assertEquals(Finding.Kind.DEAD_LETTERS, last.verdict().findings().get(0).kind());
  }

  @Test
  void aFailedLoadTestStageFailsTheRun() throws Exception {
    ScenarioPlan plan =
        plan(
            null,
            """
        name: fake-load-test
        source: {kind: pubsub, topic: rides}
        publish: {messages: 1000, backlog: 1000}
        jobs:
          a: {}
        stages:
          - {name: source, pubsub_load: {rate: 1000, duration: 10s}}
          - {name: a-alone, start: [a], until: drained, max: 1m}
        """);
    FakeTarget target = new FakeTarget(new FakeTicker(), Map.of("a", FakeJob.drains(10)));
    target.loadTestExit = ExitCodes.INCOMPLETE;
    StagedDriver driver = driver(plan, target);
    assertEquals(ExitCodes.INCOMPLETE, driver.run());
    assertEquals(Finding.Kind.LOAD_TEST, driver.verdict().findings().get(0).kind());
    assertEquals("source", driver.verdict().findings().get(0).stage());
  }

  @Test
  void aStageKindWithoutAnExecutorOnTheTargetEndsTheRunNamingTheStageAndClosesTheSegment()
      throws Exception {
    ScenarioPlan plan =
        plan(
            null,
            """
        name: fake-no-search
        source: {kind: pubsub, topic: rides}
        publish: {messages: 1000, backlog: 1000}
        jobs:
          a: {}
        stages:
          - {name: a-alone, start: [a], until: drained, max: 1m}
          - {name: search, find_max_rate: {job: a}}
        """);
    FakeTarget target = new FakeTarget(new FakeTicker(), Map.of("a", FakeJob.drains(10)));
    IOException e = assertThrows(IOException.class, () -> driver(plan, target).run());
    assertEquals("stage search: a find_max_rate stage cannot run on this target", e.getMessage());
    assertEquals("close", target.calls.get(target.calls.size() - 1));
  }

  @Test
  void aStageStopsItsJobsAsItsStopWithSaysAndTheEndAsTheTargetDoes() throws Exception {
    ScenarioPlan plan =
        plan(
            "",
            """
            name: fake-savepoint
            source: {kind: pubsub, topic: rides}
            publish: {messages: 1000, backlog: 1000}
            jobs:
              a: {}
            stages:
              - {name: writing, start: [a], hold: 20s}
              - {name: restored, stop: [a], start: [a], stop_with: savepoint, hold: 20s}
              - {name: again, stop: [a], start: [a], stop_with: cancel, until: drained, max: 1m}
            """);
    FakeTarget target = new FakeTarget(new FakeTicker(), Map.of("a", FakeJob.drains(10)));
    driver(plan, target).run();
    assertEquals(
        List.of(
            "start a",
            "stop a with savepoint",
            "start a",
            "stop a with cancel",
            "start a",
            "stop a"),
        target.calls.stream().filter(c -> c.startsWith("start ") || c.startsWith("stop ")).toList(),
        "each stage's stop_with reaches the target; the scenario's end uses the target's default");
  }

  @Test
  void aConsumerThatExitsWithAFailureFailsTheRunNamingItsStage() throws Exception {
    FakeTarget target =
        new FakeTarget(new FakeTicker(), Map.of("a", FakeJob.drains(5), "b", FakeJob.drains(15)));
    target.exitOf.put("b", ExitCodes.FAILED);
    IOException e = assertThrows(IOException.class, () -> driver(plan("", null), target).run());
    assertTrue(
        e.getMessage().startsWith("stage a-and-b: job b's consumer ended (exit 3)"),
        e.getMessage());
  }

  @Test
  void aStageInWhichARunningJobHadNothingToReadFailsTheRunAndIsRecorded() throws Exception {
    // a reads everything 5 s into its 20 s stage, then idles for the rest of it and all of stage 2.
    int exit = run(plan("", null), Map.of("a", FakeJob.drains(5), "b", FakeJob.drains(15)));
    assertEquals(ExitCodes.INCOMPLETE, exit);
    List<Finding> idle =
        last.verdict().findings().stream()
            .filter(f -> f.kind() == Finding.Kind.STAGE_PURPOSE)
            .toList();
    assertEquals(List.of("a-alone", "a-and-b"), idle.stream().map(Finding::stage).toList());
    assertEquals(15, result("a-alone", "a", "idle_seconds"));
  }

  @Test
  void aFedJobThatCaughtUpWithItsFeedForAMomentIsNotIdle() throws Exception {
    // Measured on round 2 at --scale 0.001: job a caught up with its feed for a moment 50 s into a
    // 90 s stage, kept writing ~6,000 rows/s, and was reported as having had nothing to read for 33
    // s.
    FakeTarget target =
        new FakeTarget(
            new FakeTicker(),
            Map.of("a", FakeJob.stoppedMidway(900), "b", FakeJob.stoppedMidway(900)));
    target.fed.add("a");
    StagedDriver driver =
        driver(
            plan(
                "",
                """
        name: fed
        source: {kind: pubsub, topic: rides}
        publish: {messages: 1000, backlog: 1000}
        jobs: {a: {}, b: {}}
        stages:
          - {name: a-alone, start: [a], hold: 20s}
          - {name: a-and-b, start: [b], hold: 20s}
        """),
            target);
    driver.run();
    assertEquals(
        List.of(),
        driver.verdict().findings().stream()
            .filter(f -> f.kind() == Finding.Kind.STAGE_PURPOSE)
            .toList());
  }

  @Test
  void aKilledSegmentIsResumedAtItsUnfinishedStageAndEveryJobStillVerified() throws Exception {
    ScenarioPlan plan = plan("", null);
    Map<String, FakeJob> jobs = Map.of("a", FakeJob.stoppedMidway(600), "b", FakeJob.drains(15));
    FakeTarget failing = new FakeTarget(new FakeTicker(), jobs);
    failing.failToStart = "b";
    IOException e = assertThrows(IOException.class, () -> driver(plan, failing).run());
    assertTrue(e.getMessage().startsWith("stage a-and-b: job b's consumer failed"), e.getMessage());
    assertEquals(
        "close", failing.calls.get(failing.calls.size() - 1), "the segment is closed on failure");

    FakeTarget resumed = new FakeTarget(new FakeTicker(), jobs);
    StagedDriver driver = driver(plan, resumed);
    assertEquals(1, driver.firstUnfinished(), "stage 1 was finished and marked");
    assertEquals(ExitCodes.OK, driver.run(), driver.verdict().findings().toString());
    assertEquals(
        List.of(
            "open segment-2", "start a", "start b", "stop a", "await published", "stop b", "close"),
        resumed.calls,
        "a, which ran before stage 2, is started again first");
    assertEquals(2, driver.verdict().judged());
  }

  @Test
  void aJobThatRanOnlyInAnInterruptedSegmentCannotBeVerified() throws Exception {
    ScenarioPlan plan =
        plan(
            null,
            """
        name: fake-handover
        source: {kind: pubsub, topic: rides}
        publish: {messages: 1000, backlog: 1000}
        jobs:
          a: {}
          b: {}
        stages:
          - {name: a-alone, start: [a], hold: 20s}
          - {name: b-alone, stop: [a], start: [b], hold: 20s}
          - {name: b-drains, until: drained, max: 1m}
        """);
    Map<String, FakeJob> jobs = Map.of("a", FakeJob.stoppedMidway(600), "b", FakeJob.drains(15));
    StagedDriver first =
        driver(plan, new FakeTarget(new FakeTicker(), jobs)); // creates the run directory
    RunDirectory dir = new RunDirectory(root);
    for (PlannedStage st :
        plan.stages().subList(0, 2)) { // stages 1 and 2 finished in segment 1, then a kill
      dir.finish(
          new StepStatus(
              st.marker(),
              st.name(),
              1,
              st.running(),
              st.start(),
              st.stop(),
              st.condition(),
              true,
              "2026-11-24T09:00:00Z",
              "2026-11-24T09:01:00Z",
              1),
          List.of());
    }
    assertEquals(2, first.firstUnfinished());
    StagedDriver resumed = driver(plan, new FakeTarget(new FakeTicker(), jobs));
    assertEquals(
        ExitCodes.FAILED, resumed.run(), "a ran only in segment 1, whose emulator is gone");
    Finding f = resumed.verdict().findings().get(0);
    assertEquals("a", f.job());
    assertTrue(f.message().contains("ran only in an earlier segment"), f.message());
    assertEquals(1, resumed.verdict().judged(), "b, which ran in the resumed segment, is verified");
  }

  @Test
  void aConsumerThatStoppedAtItsOwnTimeoutIsJudgedByItsVerificationNotThrown() throws Exception {
    // b stops by itself (exit 4, its --timeout) 15 s after it started, with 600 of 1,000 accounted
    // for.
    FakeTarget target =
        new FakeTarget(
            new FakeTicker(),
            Map.of("a", FakeJob.stoppedMidway(600), "b", new FakeJob(15, 600, 0, 0, 0)));
    target.exitOf.put("b", ExitCodes.INCOMPLETE);
    StagedDriver driver = driver(plan("", null), target);
    assertEquals(
        ExitCodes.INCOMPLETE,
        driver.run(),
        "400 of b's messages are neither accounted for nor left");
    Finding lost = driver.verdict().findings().get(0);
    assertEquals(Finding.Kind.LOST, lost.kind());
    assertEquals("b", lost.job());
  }

  @Test
  void theTargetHasATurnEverySecondOfAStage() throws Exception {
    FakeTarget target =
        new FakeTarget(
            new FakeTicker(), Map.of("a", FakeJob.stoppedMidway(600), "b", FakeJob.drains(15)));
    driver(plan("", null), target).run();
    assertTrue(target.ticks >= 40, "two 20 s holds and a drain: " + target.ticks + " turns");
  }

  @Test
  void aFailureInTheTargetsTurnEndsTheRunNamingTheStage() throws Exception {
    FakeTarget failing =
        new FakeTarget(
            new FakeTicker(), Map.of("a", FakeJob.stoppedMidway(600), "b", FakeJob.drains(15)));
    failing.tickFailsAt = 25;
    IOException e = assertThrows(IOException.class, () -> driver(plan("", null), failing).run());
    assertEquals(
        "stage a-and-b: the live-publisher failed (exit 1); see live-publisher.log",
        e.getMessage());
    assertEquals(
        "close", failing.calls.get(failing.calls.size() - 1), "the segment is closed on failure");
  }

  @Test
  void aTargetThatDoesNotMeasureGetsNoStageFiguresButEveryJobIsVerified() throws Exception {
    FakeTarget target =
        new FakeTarget(
            new FakeTicker(), Map.of("a", FakeJob.stoppedMidway(600), "b", FakeJob.drains(15)));
    target.measures = StageTarget.Measures.NOTHING;
    assertEquals(ExitCodes.OK, driver(plan("", null), target).run());
    List<ResultRecord> results = new RunDirectory(root).readResults();
    assertTrue(
        results.stream().noneMatch(r -> r.metric().equals("rows_per_second")), results.toString());
    assertEquals(
        400, result("a-and-b", "a", "left"), "a's verification is recorded with its last stage");
    assertTrue(
        new RunDirectory(root).isDone(plan("", null).stages().get(2).marker()),
        "every stage is marked done");
  }

  @Test
  void jobsOfOneConsumerGroupThatTogetherReadEverythingHadNothingLeftToRead() throws Exception {
    // Each accounted for only its share (500 of 1,000), but the group had read the whole topic 5 s
    // into the 20 s stage: neither had anything left to read for 15 s.
    FakeTarget target =
        new FakeTarget(
            new FakeTicker(),
            Map.of("a", FakeJob.stoppedMidway(500), "b", FakeJob.stoppedMidway(500)));
    target.groupDrainsAtTick = 5;
    StagedDriver driver =
        driver(
            plan(
                "",
                """
        name: shared-group
        source: {kind: kafka, topic: rides, consumer_groups: shared}
        publish: {messages: 1000, backlog: 1000}
        jobs: {a: {}, b: {}}
        stages:
          - {name: together, start: [a, b], hold: 20s}
        """),
            target);
    assertEquals(ExitCodes.INCOMPLETE, driver.run());
    List<Finding> idle =
        driver.verdict().findings().stream()
            .filter(f -> f.kind() == Finding.Kind.STAGE_PURPOSE)
            .toList();
    assertEquals(List.of("a", "b"), idle.stream().map(Finding::job).sorted().toList());
    assertEquals(15, result("together", "a", "idle_seconds"));
  }
}
