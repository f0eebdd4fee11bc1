package dev.ingestbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.contracts.job.WriteMethod;
import dev.ingestbench.harness.round.RoundPlan;
import dev.ingestbench.harness.round.RoundSpec;
import dev.ingestbench.harness.spec.SettingFlag;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code round}'s flags become a typed {@link RoundSpec}, and a spec written back as flags (what
 * --dry-run prints for a scenario's iterations) reads back into the same spec.
 */
class RoundSpecFlagsTest {
  private static RoundSpec parse(List<String> args) {
    RoundCommand round = new RoundCommand();
    new CommandLine(round).parseArgs(args.toArray(new String[0]));
    return round.spec();
  }

  @Test
  void everySettingsRoundFlagIsAnOptionOfRound() {
    CommandLine round = new CommandLine(new RoundCommand());
    for (SettingFlag setting : SettingFlag.values()) {
      assertTrue(
          round.getCommandSpec().findOption(setting.round()) != null,
          setting + ": round has no " + setting.round());
    }
  }

  @Test
  void onlyARoundWhoseJobsWriteToTheEmulatorProcessStartsOne() {
    RoundPlan shared = new RoundPlan(parse(List.of("--out", "runs/x", "--messages", "1000")));
    assertTrue(
        shared.bigQueryEmulatorArgs().orElseThrow().contains("--published-messages=1000"),
        shared.bigQueryEmulatorArgs().toString());
    RoundPlan inProcess =
        new RoundPlan(
            parse(List.of("--out", "runs/x", "--messages", "1000", "--sink", "in-process")));
    assertEquals(Optional.empty(), inProcess.bigQueryEmulatorArgs());
  }

  /**
   * A round's consumers log at the top of --out: {@code consumer.log}, or {@code consumer-J.log}.
   */
  @Test
  void aRoundsConsumersLogAtTheTopOfOut() {
    Path out = Path.of("runs", "x");
    RoundPlan one = new RoundPlan(parse(List.of("--out", "runs/x", "--sink", "in-process")));
    assertEquals(out.resolve("consumer.log"), one.log("job-1", out));
    RoundPlan two = new RoundPlan(parse(List.of("--out", "runs/x", "--jobs", "2")));
    assertEquals(out.resolve("consumer-2.log"), two.log("job-2", out));
  }

  @Test
  void theRunnerIsTheConsumersJvmUnlessItIsACluster() {
    assertTrue(parse(List.of("--out", "runs/x")).runner().consumerJvmRunsPipeline());
    assertEquals(
        "DirectRunner",
        parse(List.of("--out", "runs/x", "--runner", "DirectRunner")).runner().beamRunner());
    RoundSpec cluster =
        parse(
            List.of("--out", "runs/x", "--runner", "flink-cluster", "--kill-taskmanager-at", "9"));
    assertFalse(cluster.runner().consumerJvmRunsPipeline());
    assertEquals(9L, cluster.runner().killTaskManagerAt());
  }

  @Test
  void aSpecReadsBackFromItsOwnFlags() {
    for (List<String> args :
        List.of(
            List.of("--out", "runs/x"),
            List.of(
                "--out",
                "runs/y",
                "--force",
                "--source",
                "kafka",
                "--message-format",
                "avro",
                "--consumer-groups",
                "shared",
                "--partitions",
                "8",
                "--jobs",
                "2",
                "--write-method",
                "at-least-once",
                "--connection-pool",
                "--destination-tables",
                "4",
                "--row-format",
                "typed",
                "--row-encoding",
                "proto",
                "--quota-mb-per-second",
                "2",
                "--quota-window-seconds",
                "5",
                "--quota-mode",
                "two-tier",
                "--cell-quota-mb-per-second",
                "4",
                "--cell-quota-window-seconds",
                "2",
                "--fault",
                "drop=0.1",
                "--kill-consumer-at",
                "30",
                "--crash-every",
                "20",
                "--consumer-arg=--failAtMessage=5",
                "--max-dead-letters",
                "3",
                "--live-messages",
                "0"),
            List.of(
                "--out",
                "runs/m",
                "--find-max-rate",
                "--latency-slo",
                "2500ms",
                "--probe-duration",
                "30s",
                "--max-probes",
                "6",
                "--confirm-probes",
                "2",
                "--jobs",
                "2"),
            List.of("--out", "runs/f", "--feed", "--messages", "500000", "--source", "kafka"),
            List.of("--out", "runs/s", "--savepoint-at", "20", "--jobs", "2"),
            List.of(
                "--out",
                "runs/z",
                "--streams",
                "4",
                "--triggering-frequency",
                "2",
                "--sink",
                "in-process",
                "--runner",
                "DirectRunner",
                "--message-size",
                "10000",
                "--seed",
                "7",
                "--timeout",
                "90"))) {
      RoundSpec spec = parse(args);
      RoundSpec again = parse(spec.asRoundFlags());
      assertEquals(spec.asRoundFlags(), again.asRoundFlags(), String.join(" ", args));
      assertEquals(spec.job(), again.job());
    }
  }

  @Test
  void flagsBecomeTypedSettings() {
    RoundSpec spec =
        parse(
            List.of(
                "--out",
                "runs/x",
                "--source",
                "kafka",
                "--message-format",
                "avro",
                "--write-method",
                "STORAGE_API_AT_LEAST_ONCE"));
    assertEquals(RoundSpec.Source.KAFKA, spec.source());
    assertEquals(88, spec.messageSize(), "Avro's usual size when --message-size is not given");
    assertEquals(WriteMethod.AT_LEAST_ONCE, spec.job().writeMethod());
    assertEquals(RoundSpec.DEFAULT_PARTITIONS, spec.partitions());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> parse(List.of("--out", "runs/x", "--partitions", "4")));
    assertEquals(
        "--partitions and --consumer-groups are for --source kafka; add it, or drop them",
        e.getMessage());
  }

  /**
   * Beam's {@code --parallelism} for an embedded Flink shares its name with round's own (a Flink
   * cluster's): picocli refused it as a value until --consumer-arg took its value as it is.
   */
  @Test
  void aConsumerArgMayNameAFlagOfRoundItself() {
    RoundSpec spec =
        parse(
            List.of(
                "--out",
                "runs/x",
                "--consumer-arg=--parallelism=1",
                "--consumer-arg",
                "--timeout=5",
                "--jobs",
                "2"));
    assertEquals(List.of("--parallelism=1", "--timeout=5"), spec.consumerArgs());
    assertEquals(2, spec.jobs());
    assertEquals(RoundSpec.DEFAULT_TIMEOUT_SECONDS, spec.timeoutSeconds());
    CommandLine.ParameterException e =
        assertThrows(
            CommandLine.ParameterException.class,
            () -> new CommandLine(new RoundCommand()).parseArgs("--consumer-arg"));
    assertEquals(
        "--consumer-arg needs a Beam flag: give it as --consumer-arg=--FLAG=VALUE", e.getMessage());
  }

  /** Both once failed a round only after its servers had started (in the publisher, in mkdir). */
  @Test
  void theHeapAndTheOutDirectoryAreCheckedBeforeAnythingStarts(@TempDir Path dir) throws Exception {
    assertEquals("768m", parse(List.of("--out", "runs/x", "--heap", "768m")).heap());
    assertEquals(
        "--heap 10x is not a JVM heap size: give a whole number with k, m or g, e.g. 768m or 2g",
        assertThrows(
                IllegalArgumentException.class,
                () -> parse(List.of("--out", "runs/x", "--heap", "10x")))
            .getMessage());
    Path file = Files.writeString(dir.resolve("notes.txt"), "mine");
    assertEquals(
        "--out "
            + file.resolve("round")
            + ": "
            + file
            + " is a file, not a directory; give a directory (it is created when missing)",
        assertThrows(
                IllegalArgumentException.class,
                () -> parse(List.of("--out", file.resolve("round").toString())))
            .getMessage());
    assertEquals(dir.resolve("a/b"), parse(List.of("--out", dir.resolve("a/b").toString())).out());
    assertFalse(Files.exists(dir.resolve("a")), "checking creates nothing");
  }

  @Test
  void crashEveryIsCheckedBeforeAnythingStarts() {
    assertEquals(20L, parse(List.of("--out", "runs/x", "--crash-every", "20")).crashEverySeconds());
    assertEquals(
        "--crash-every 3 must be 5 seconds or more: each life must have time to restore and complete a"
            + " checkpoint",
        assertThrows(
                IllegalArgumentException.class,
                () -> parse(List.of("--out", "runs/x", "--crash-every", "3")))
            .getMessage());
    assertEquals(
        "--crash-every needs --sink emulator and --runner FlinkRunner: the verification must outlive the"
            + " killed JVMs, and each restart restores a Flink checkpoint",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    parse(
                        List.of("--out", "runs/x", "--crash-every", "20", "--sink", "in-process")))
            .getMessage());
  }

  @Test
  void aMaxRateSearchIsTypedAndEveryBadFlagIsRefusedNamingIt() {
    RoundSpec spec =
        parse(List.of("--out", "runs/m", "--find-max-rate", "--latency-slo", "2500ms"));
    assertEquals(2_500, spec.findMaxRate().latencySlo().toMillis());
    assertEquals(20, spec.findMaxRate().window().toSeconds());
    assertEquals(10, spec.findMaxRate().maxProbes());
    assertEquals(1, spec.findMaxRate().confirmations());
    assertEquals(null, parse(List.of("--out", "runs/x")).findMaxRate());
    assertTrue(
        parse(List.of("--out", "runs/x", "--find-max-rate", "--source", "kafka")).searches(),
        "a Kafka round searches too");
    for (List<String> bad :
        List.of(
            List.of("--latency-slo", "5s"),
            List.of("--find-max-rate", "--messages", "1000"),
            List.of("--find-max-rate", "--live-rate", "1000"),
            List.of("--find-max-rate", "--sink", "in-process"),
            List.of(
                "--find-max-rate",
                "--consumer-groups",
                "shared",
                "--source",
                "kafka",
                "--jobs",
                "2"),
            List.of("--find-max-rate", "--runner", "flink-cluster"),
            List.of("--find-max-rate", "--kill-consumer-at", "30"),
            List.of("--find-max-rate", "--latency-slo", "5"),
            List.of("--find-max-rate", "--latency-slo", "50ms"),
            List.of("--find-max-rate", "--probe-duration", "2s"),
            List.of("--find-max-rate", "--max-probes", "1"),
            List.of("--find-max-rate", "--confirm-probes", "10"))) {
      List<String> args = new java.util.ArrayList<>(List.of("--out", "runs/x"));
      args.addAll(bad);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> parse(args), String.join(" ", bad));
      String flag = bad.get(bad.size() > 1 && bad.get(1).startsWith("--") ? 1 : 0);
      org.junit.jupiter.api.Assertions.assertTrue(
          e.getMessage().contains(flag), e.getMessage() + " should name " + flag);
    }
  }

  /** --savepoint-at: a stop with a savepoint and a restore, refused where it cannot be one. */
  @Test
  void aSavepointRestartIsTheRoundsOneStagesKeyAndRefusedWhereItCannotRestore() {
    RoundSpec spec = parse(List.of("--out", "runs/s", "--savepoint-at", "20"));
    assertEquals(20L, spec.savepointAt());
    assertTrue(spec.restartsConsumers() && !spec.killsConsumers());
    for (List<String> bad :
        List.of(
            List.of("--savepoint-at", "0"),
            List.of("--savepoint-at", "700", "--timeout", "600"),
            List.of("--savepoint-at", "20", "--kill-consumer-at", "30"),
            List.of("--savepoint-at", "20", "--crash-every", "30"),
            List.of("--savepoint-at", "20", "--sink", "in-process"),
            List.of("--savepoint-at", "20", "--runner", "DirectRunner"),
            List.of("--savepoint-at", "20", "--find-max-rate"))) {
      List<String> args = new java.util.ArrayList<>(List.of("--out", "runs/x"));
      args.addAll(bad);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> parse(args), String.join(" ", bad));
      assertTrue(e.getMessage().contains("--savepoint-at"), e.getMessage());
      if (bad.size() > 2) {
        assertTrue(e.getMessage().contains(bad.get(2)), e.getMessage() + " names " + bad.get(2));
      }
    }
  }

  @Test
  void aFedRoundFeedsItsWholeBacklogAndIsRefusedBesideWhatItCannotFeed() {
    RoundSpec spec = parse(List.of("--out", "runs/f", "--feed", "--messages", "500000"));
    assertTrue(spec.feed());
    assertEquals(0, spec.liveMessages(), "without --live-messages, none: a fed round is a backlog");
    assertEquals(500_000, spec.backlogMessages());
    for (List<String> bad :
        List.of(
            List.of("--feed", "--live-messages", "1000"),
            List.of("--feed", "--find-max-rate"),
            List.of("--feed", "--sink", "in-process"))) {
      List<String> args = new java.util.ArrayList<>(List.of("--out", "runs/x"));
      args.addAll(bad);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> parse(args), String.join(" ", bad));
      assertTrue(e.getMessage().contains("--feed"), e.getMessage());
      assertTrue(e.getMessage().contains(bad.get(1)), e.getMessage() + " names " + bad.get(1));
    }
  }

  @Test
  void withoutLiveMessagesAThirdOfTheMessagesAreLiveAtMostOneHundredThousand() {
    assertEquals(100_000, parse(List.of("--out", "runs/d")).liveMessages());
    assertEquals(200_000, parse(List.of("--out", "runs/d")).backlogMessages());
    assertEquals(6_666, parse(List.of("--out", "runs/d", "--messages", "20000")).liveMessages());
    assertEquals(
        100_000, parse(List.of("--out", "runs/d", "--messages", "1000000")).liveMessages());
    assertEquals(
        0,
        parse(List.of("--out", "runs/d", "--messages", "20000", "--live-messages", "0"))
            .liveMessages());
  }

  @Test
  void aLiveProfileSetsTheLiveMessagesAndIsRefusedWhereItCannotHold() {
    RoundSpec spec =
        parse(
            List.of(
                "--out",
                "runs/p",
                "--messages",
                "400000",
                "--live-rate",
                "1000",
                "--live-profile",
                "1x:60s,2x:60s,4x:30s,1x:60s"));
    assertEquals(360_000, spec.liveMessages());
    assertEquals(40_000, spec.backlogMessages());
    assertEquals("1x:60s,2x:60s,4x:30s,1x:60s", spec.liveProfile().toString());
    assertEquals(spec.asRoundFlags(), parse(spec.asRoundFlags()).asRoundFlags());
    for (List<String> bad :
        List.of(
            List.of("--live-profile", "1x:60s", "--live-messages", "5"),
            List.of("--live-profile", "1x:60s", "--find-max-rate"),
            List.of("--live-profile", "2x"),
            List.of("--live-profile", "1x:600s", "--live-rate", "10000"))) {
      List<String> args = new java.util.ArrayList<>(List.of("--out", "runs/x"));
      args.addAll(bad);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> parse(args), String.join(" ", bad));
      org.junit.jupiter.api.Assertions.assertTrue(
          e.getMessage().contains("--live-profile"), e.getMessage());
    }
  }
}
