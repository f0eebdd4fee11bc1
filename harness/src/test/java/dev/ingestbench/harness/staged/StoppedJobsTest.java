package dev.ingestbench.harness.staged;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.bigquery.BigQueryEmulator;
import dev.ingestbench.bigquery.EmulatorSettings;
import dev.ingestbench.contracts.AccountedIndexes;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.scenario.ScenarioFile;
import dev.ingestbench.scenario.ScenarioPlan;
import dev.ingestbench.verification.JobCounts;
import dev.ingestbench.verification.LeftInSource;
import dev.ingestbench.verification.Verdict;
import dev.ingestbench.verification.VerificationPolicy;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs that share a Kafka consumer group are verified as the group: a message either wrote is
 * accounted for, and one neither wrote nor left in the group is lost.
 */
class StoppedJobsTest {
  private static final long PUBLISHED = 1_000;

  private static BitSet range(int from, int to) {
    BitSet b = new BitSet();
    b.set(from, to);
    return b;
  }

  /** Job b's verdict when a wrote {@code a} and b wrote {@code b}, nothing left in the group. */
  private static int verdictOfB(BitSet a, BitSet b) throws Exception {
    BitSet group = StoppedJobs.accountedBy(List.of("a", "b"), Map.of("a", a, "b", b)::get);
    long left = LeftInSource.count(new BitSet(), group, PUBLISHED);
    Verdict verdict = new Verdict(new VerificationPolicy(0));
    verdict.judge(
        new JobCounts(
            "b-alone",
            "b",
            false,
            PUBLISHED,
            b.cardinality(),
            b.cardinality(),
            0,
            0,
            group.cardinality(),
            left,
            null));
    return verdict.exitCode();
  }

  @Test
  void aJobOfASharedGroupIsVerifiedAgainstWhatTheGroupWrote() throws Exception {
    // b started from the offsets a committed: a wrote 0..599, b the rest, overlapping a little
    assertEquals(ExitCodes.OK, verdictOfB(range(0, 600), range(590, 1_000)));
    // b read nothing itself: a had written everything
    assertEquals(ExitCodes.OK, verdictOfB(range(0, 1_000), new BitSet()));
  }

  @Test
  void aMessageNoJobOfTheGroupWroteIsLost() throws Exception {
    // 600..609: neither job wrote them, and the group left nothing unread: lost, exit 1
    assertEquals(ExitCodes.INCOMPLETE, verdictOfB(range(0, 600), range(610, 1_000)));
  }

  /**
   * A member of a shared group that wrote in-process and left no results: what the group accounted
   * for is not known, so its partner is unverified (a failed run), never judged on its own rows.
   */
  @Test
  void aGroupWhoseInProcessMemberLeftNoResultsIsUnverified(@TempDir Path dir) throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("s.yaml"),
            """
            name: s
            source: {kind: kafka, topic: rides, consumer_groups: shared}
            publish: {messages: 100, backlog: 100}
            jobs: {a: {sink: in-process}, b: {sink: in-process}}
            stages:
              - {name: both, start: [a, b], hold: 5s}
            """);
    ScenarioPlan plan = ScenarioPlan.of(ScenarioFile.load(file), 1, 0);
    Path segment = dir.resolve("segment-1");
    Path a = ScenarioConsumers.directory(segment, "a");
    Path b = ScenarioConsumers.directory(segment, "b");
    Files.createDirectories(a);
    // a announced an emulator that is gone, and left nothing; b stopped and left its files.
    RunJson.write(
        a.resolve(RunFiles.IN_PROCESS_BIGQUERY),
        Map.of(RunFiles.IN_PROCESS_BIGQUERY_REST, "http://127.0.0.1:1"));
    try (BigQueryEmulator own = BigQueryEmulator.start(EmulatorSettings.defaults())) {
      RunJson.write(b.resolve(RunFiles.ACCOUNTED_INDEXES), AccountedIndexes.of("b", range(0, 60)));
      own.writeFiles(b);
    }
    try (ScenarioSampler sampler =
        new ScenarioSampler(
            new JobSinks(
                Optional.empty(), Map.of("a", a, "b", b), job -> segment.resolve(job + ".log")),
            new StringWriter())) {
      StoppedJobs stopped =
          new StoppedJobs(
              plan,
              ScenarioSource.of(plan),
              "127.0.0.1:1",
              sampler,
              segment,
              ScenarioSource.of(plan)::groupOf,
              line -> {});
      stopped.stopped("b");
      JobCounts counts = stopped.count("both", "b", false, 100L, null);
      assertTrue(
          counts.unverified() != null
              && counts.unverified().startsWith("could not read what its consumer group"),
          String.valueOf(counts.unverified()));
      Verdict verdict = new Verdict(new VerificationPolicy(0));
      verdict.judge(counts);
      assertEquals(ExitCodes.FAILED, verdict.exitCode());
    }
  }

  /**
   * What was published, from the publishers' results: a result the plan does not count on (a
   * max-rate search's probes, in a plan of no messages) is read too; a result the plan counts on
   * and that is missing makes it unknown.
   */
  @Test
  void publishedCountsEveryPublishersResultAndIsUnknownWithoutAPlannedOne(@TempDir Path dir)
      throws Exception {
    ScenarioPlan probesOnly = // as a max-rate scenario's
        plan(dir, "{message_size: 500}", "{name: max, find_max_rate: {job: a}}");
    ScenarioPlan backlogOnly =
        plan(dir, "{messages: 100, backlog: 100}", "{name: one, start: [a], hold: 5s}");
    Path segment = Files.createDirectories(dir.resolve("segment-1"));
    assertEquals(0L, stoppedJobs(probesOnly, segment).published(), "nothing published");
    assertEquals(
        null, stoppedJobs(backlogOnly, segment).published(), "its backlog's result missing");
    Files.writeString(segment.resolve(RunFiles.PUBLISHER_LIVE), "{\"published\": 4321}");
    assertEquals(4321L, stoppedJobs(probesOnly, segment).published(), "the probes' result");
    Files.writeString(segment.resolve(RunFiles.PUBLISHER_BACKLOG), "{\"published\": 100}");
    assertEquals(4421L, stoppedJobs(backlogOnly, segment).published());
  }

  private static ScenarioPlan plan(Path dir, String publish, String stage) throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("p.yaml"),
            """
            name: p
            source: {kind: pubsub, topic: rides}
            publish: PUBLISH
            jobs: {a: {}}
            stages:
              - STAGE
            """
                .replace("PUBLISH", publish)
                .replace("STAGE", stage));
    return ScenarioPlan.of(ScenarioFile.load(file), 1, 0);
  }

  private static StoppedJobs stoppedJobs(ScenarioPlan plan, Path segment) {
    return new StoppedJobs(
        plan, ScenarioSource.of(plan), "127.0.0.1:1", null, segment, List::of, line -> {});
  }
}
