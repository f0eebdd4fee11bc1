package dev.ingestbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.harness.round.RoundSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * README command 1, small: a whole local round through the real command, its processes and its
 * files.
 */
@Tag("e2e")
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class RoundCommandTest {

  /**
   * Two rounds at once on one machine, as two users (or two terminals) start them, and consumer
   * crashes in each. In a process of its own: a Kafka round whose exactly-once consumer is killed
   * with SIGKILL at 15 s ({@code --kill-consumer-at}) and restored from its checkpoint, until it
   * has written every record (repeated kills, {@code --crash-every}, share that code:
   * ConsumerKillTest holds their schedule, docs/results.md their measurements; a third life here
   * cost ~30 s). In this JVM: two at-least-once jobs writing one table, with live traffic, both
   * stopped with a Flink savepoint 5 s in and restored from it ({@code --savepoint-at}: a planned
   * restart, as an upgrade), checked file by file. Each round starts its own servers on free ports
   * and keeps its own directories and checkpoints; neither loses a message. A restore that lost the
   * job's state (as Beam's FlinkRunner did on an embedded Flink until the consumer restored it
   * itself) loses the exactly-once rows whose flush was pending at the kill; rows written again
   * after a restore are counted as duplicates, and fail only the exactly-once round, with its
   * reason.
   */
  @Test
  void twoRoundsAtOnceWithKilledOrRestartedConsumersLoseNothing(
      @TempDir Path out, @TempDir Path killedOut, @TempDir Path logs) throws Exception {
    Process killed =
        IngestbenchProcess.start(
            logs.resolve("killed-round.log"),
            "round",
            "--out",
            killedOut.toString(),
            "--force",
            "--source",
            "kafka",
            "--message-format",
            "avro",
            "--write-method",
            "exactly-once",
            "--messages",
            "12000",
            "--live-messages",
            "4000",
            "--live-rate",
            "400",
            "--kill-consumer-at",
            "15",
            "--heap",
            "768m",
            "--timeout",
            "300");
    try {
      // The second round starts once the first has killed its consumer: a consumer's first
      // checkpoint
      // comes ~15 s after its start alone, and only after minutes with both rounds starting at once
      // on two cores. The rounds still overlap: restore, live traffic and drain run beside it.
      Path killedLog = logs.resolve("killed-round.log");
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
      while (killed.isAlive()
          && System.nanoTime() < deadline
          && !(Files.exists(killedLog)
              && Files.readString(killedLog).contains("Killed the consumer"))) {
        Thread.sleep(500);
      }
      assertTrue(
          killed.isAlive(), "the killed round is still running: " + Files.readString(killedLog));
      StringWriter roundErr = new StringWriter();
      CommandLine round = IngestbenchCommand.commandLine();
      round.setErr(new PrintWriter(roundErr, true));
      int exit =
          round.execute(
              "round",
              "--out",
              out.toString(),
              "--jobs",
              "2",
              "--messages",
              "6000",
              "--live-rate",
              "500",
              "--live-profile",
              "1x:2s,3x:2s",
              "--write-method",
              "at-least-once",
              "--savepoint-at",
              "5",
              "--heap",
              "768m",
              "--timeout",
              "300");
      assertEquals(
          0,
          exit,
          () ->
              "round exit code: "
                  + roundErr
                  + endsOf(
                      out,
                      "consumer-1.log",
                      "consumer-2.log",
                      "consumer-1.1.log",
                      "consumer-2.1.log",
                      "status/01-round.json"));
      JsonNode all = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
      assertEquals(2, all.get("jobs").asInt());
      assertEquals(
          12_000, all.get("distinct_message_ids").asLong(), "each job wrote every message");
      assertEquals(0, all.get("lost").asLong());
      assertEquals("at-least-once", all.get("write_method").asText());
      assertEquals("FlinkRunner", all.get("runner").asText());
      assertTrue(all.get("rows_per_second").asDouble() > 0);
      for (String job : new String[] {"job-1", "job-2"}) {
        JsonNode one =
            new ObjectMapper().readTree(out.resolve(job).resolve("summary.json").toFile());
        assertEquals(
            6_000,
            one.get("distinct_message_ids").asLong(),
            job + ": the other job's rows are not its own");
        assertEquals(0, one.get("lost").asLong(), job);
        assertTrue(
            one.get("live_intended_p99_latency_ms").asLong() > 0
                && one.get("live_intended_latency_samples").asLong() >= 4_000,
            job + ": every live message measured against its intended send time: " + one);
        assertEquals(
            one.get("written").asLong() - 6_000,
            one.get("duplicates").asLong(),
            job + ": replays are counted");
        assertTrue(
            Files.readString(out.resolve(job).resolve("write_api_timeline.csv"))
                .contains(",taxi_rides,DEFAULT,OK,"));
      }
      String connections = Files.readString(out.resolve("concurrent_connections.csv"));
      assertTrue(
          connections.contains(",job-1,") && connections.contains(",job-2,"),
          "connections counted per job");
      assertTrue(
          all.get("peak_connections").asInt() >= 2,
          "the BigQuery emulator counted the consumers' connections");
      assertTrue(Files.readString(out.resolve("report.md")).contains("## Verification"));
      // The live messages stepped through --live-profile: 1,000 at 500 msg/s, then 3,000 at 1,500,
      // each step measured per job against the times the publisher meant to send them.
      JsonNode profile = new ObjectMapper().readTree(out.resolve("live_profile.json").toFile());
      assertEquals(2, profile.get("steps").size());
      assertEquals(3_000, profile.get("steps").get(1).get("expected_messages").asLong());
      assertTrue(
          profile.get("steps").get(1).get("latency_by_job").has("job-2"), profile.toString());
      assertTrue(Files.readString(out.resolve("report.md")).contains("## Live profile"));
      assertTrue(
          Files.readString(out.resolve("write_api_timeline.csv")).startsWith("start_timestamp,"));
      for (String chart : List.of("throughput.svg", "connections.svg")) {
        assertTrue(Files.exists(out.resolve(chart)), chart);
      }
      assertTrue(
          Files.exists(out.resolve("consumer-1.1.log"))
              && Files.exists(out.resolve("consumer-2.1.log")),
          "both jobs were stopped and restored: each first life's log is kept");
      for (String life : List.of("consumer-1.1.log", "consumer-2.1.log")) {
        assertTrue(
            Files.readString(out.resolve(life)).contains("Stopping with a savepoint"),
            life + " ended with a savepoint, not a kill");
      }
      for (String life : List.of("consumer-1.log", "consumer-2.log")) {
        String log = Files.readString(out.resolve(life));
        assertTrue(
            log.contains("Restoring the job's state") && log.contains("/savepoints/"),
            life + ": the second life restored the savepoint");
      }
      assertEquals(
          5,
          new ObjectMapper()
              .readTree(out.resolve("round.json").toFile())
              .get("savepoint_at")
              .asInt());
      assertTrue(Files.readString(out.resolve("report.md")).contains("Consumer restart"));
      assertFilesNameTheirRound(out);

      assertTrue(killed.waitFor(4, TimeUnit.MINUTES), "the killed round ended");
      String log = Files.readString(killedLog);
      assertTrue(
          Pattern.compile(
                  "Killed the consumer \\(SIGKILL\\) at \\d+ s; starting it again from its"
                      + " checkpoint chk-\\d+")
              .matcher(log)
              .find(),
          log);
      assertTrue(
          Files.exists(killedOut.resolve("summary.json")),
          log + lastLines(killedOut.resolve("consumer.log")));
      JsonNode s = new ObjectMapper().readTree(killedOut.resolve("summary.json").toFile());
      assertEquals(
          12_000, s.get("distinct_message_ids").asLong(), "every record read across both lives");
      assertEquals(0, s.get("lost").asLong());
      long duplicates = s.get("duplicates").asLong();
      assertEquals(
          s.get("written").asLong() - 12_000, duplicates, "rows written twice are counted");
      assertEquals(duplicates == 0 ? ExitCodes.OK : ExitCodes.INCOMPLETE, killed.exitValue(), log);
      assertEquals(
          duplicates > 0,
          log.contains("Verification failed: job consumer: exactly-once wrote"),
          log);
      assertTrue(Files.exists(killedOut.resolve("consumer.1.log")), "the first life's log is kept");
      assertTrue(
          !Files.exists(killedOut.resolve("checkpoints")), "the retained checkpoints are removed");
      assertTrue(
          Files.readString(killedOut.resolve("report.md"))
              .contains(
                  "killed (SIGKILL) 15 s after it started and started"
                      + " again from its last completed Flink checkpoint"));
      Matcher kills =
          Pattern.compile(
                  "Consumers killed \\(SIGKILL\\) and restored from a checkpoint: (\\d+) time\\(s\\) in all")
              .matcher(log);
      assertTrue(kills.find() && Integer.parseInt(kills.group(1)) >= 1, log);
      assertEquals(
          Integer.parseInt(kills.group(1)),
          log.split("Killed the consumer \\(SIGKILL\\)", -1).length - 1,
          "every kill is said and counted");
      for (int life = 1; life <= Integer.parseInt(kills.group(1)); life++) {
        assertTrue(
            Files.exists(killedOut.resolve("consumer." + life + ".log")),
            "killed life " + life + "'s log");
      }
    } finally {
      killed.toHandle().destroy();
      killed.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /**
   * Every JSON file names the round, every CSV is recorded by checksum under it; a file of another
   * round, or a CSV changed afterwards, makes the analysis refuse the directory.
   */
  private static void assertFilesNameTheirRound(Path out) throws Exception {
    ObjectMapper json = new ObjectMapper();
    String runId = json.readTree(out.resolve("round.json").toFile()).get("run_id").asText();
    assertTrue(runId.startsWith("round-"), runId);
    for (String file :
        List.of(
            "summary.json",
            "consumer_result.json",
            "publisher_backlog.json",
            "publisher_live.json",
            "bigquery_emulator.json",
            "csv_checksums.json")) {
      assertEquals(runId, json.readTree(out.resolve(file).toFile()).get("run_id").asText(), file);
    }
    Path live = out.resolve("publisher_live.json");
    String liveJson = Files.readString(live);
    Files.writeString(live, liveJson.replace(runId, "round-20260101-000000-abcdef"));
    StringWriter err = new StringWriter();
    CommandLine cli = IngestbenchCommand.commandLine();
    cli.setErr(new PrintWriter(err, true));
    assertEquals(ExitCodes.USAGE, cli.execute("analyze", "--run", out.toString()));
    assertTrue(
        err.toString()
            .contains(
                "publisher_live.json is from round round-20260101-000000-abcdef, not from round "
                    + runId),
        err.toString());
    // A CSV cannot name its round (its columns are the view's): its checksum, recorded by the
    // round, does.
    Files.writeString(live, liveJson);
    Path timeline = out.resolve("write_api_timeline_per_second.csv");
    // Another digit than the one there: the first value after OK may well be a 9 already.
    Matcher first = Pattern.compile(",OK,(\\d)").matcher(Files.readString(timeline));
    assertTrue(first.find(), "the timeline has a row");
    int digit = first.group(1).charAt(0) - '0';
    Files.writeString(timeline, first.replaceFirst(",OK," + (digit + 1) % 10));
    assertEquals(ExitCodes.USAGE, cli.execute("analyze", "--run", out.toString()));
    assertTrue(
        err.toString()
            .contains("write_api_timeline_per_second.csv was changed after round " + runId),
        err.toString());
  }

  @Test
  void twoKafkaJobsInOneConsumerGroupEachReadEveryAvroRecordAndTheReportSaysWhy(@TempDir Path out)
      throws Exception {
    int exit =
        IngestbenchCommand.commandLine()
            .execute(
                "round",
                "--out",
                out.toString(),
                "--source",
                "kafka",
                "--message-format",
                "avro",
                "--partitions",
                "8",
                "--jobs",
                "2",
                "--consumer-groups",
                "shared",
                "--messages",
                "10000",
                "--live-messages",
                "0",
                "--destination-tables",
                "4",
                "--row-format",
                "typed",
                "--row-encoding",
                "proto",
                "--write-method",
                "at-least-once",
                "--connection-pool",
                "--heap",
                "768m",
                "--timeout",
                "300",
                // A SASL setting (ignored by a PLAINTEXT broker) stands for a secret: no file or
                // log may hold it.
                "--consumer-arg=--kafkaConsumerConfig=sasl.kerberos.service.name=secret-value-7");
    assertEquals(0, exit, "round exit code");
    for (String file :
        List.of("round.json", "summary.json", "consumer-1.log", "consumer-2.log", "report.md")) {
      assertTrue(
          !Files.readString(out.resolve(file)).contains("secret-value-7"),
          file + " holds the secret");
    }
    assertTrue(
        Files.readString(out.resolve("round.json"))
            .contains("sasl.kerberos.service.name=<redacted>"));
    for (String job : new String[] {"job-1", "job-2"}) {
      JsonNode one = new ObjectMapper().readTree(out.resolve(job).resolve("summary.json").toFile());
      assertEquals(
          10_000,
          one.get("distinct_message_ids").asLong(),
          job + " read every record despite the shared group");
      assertEquals(0, one.get("lost").asLong(), job);
      assertEquals(0, one.get("mismatched_rows").asLong(), job + ": " + one.get("mismatches"));
    }
    String report = Files.readString(out.resolve("report.md"));
    assertTrue(report.contains("Sharing one consumer group did not split the partitions"), report);
    assertTrue(
        report.contains("Every visible row was compared, column by column"),
        "Avro records through typed proto rows: every row's content checked against its event: "
            + report);
    assertTrue(
        report.contains("local Apache Kafka broker") && report.contains("8 partitions"), report);
    JsonNode round = new ObjectMapper().readTree(out.resolve("round.json").toFile());
    assertEquals("kafka", round.get("source").asText());
    assertEquals("avro", round.get("message_format").asText());
    List<String> command = new ArrayList<>();
    round.get("command").forEach(flag -> command.add(flag.asText()));
    assertTrue(
        command.contains(
            "--consumer-arg=--kafkaConsumerConfig=sasl.kerberos.service.name=<redacted>"),
        command.toString());
    RoundCommand again = new RoundCommand();
    new picocli.CommandLine(again).parseArgs(command.toArray(new String[0]));
    RoundSpec asRun = again.spec();
    assertEquals(RoundSpec.Source.KAFKA, asRun.source(), "round.json's command runs it again");
    assertEquals(2, asRun.jobs());
    assertTrue(asRun.sharedConsumerGroup());
    assertEquals(8, asRun.partitions());
    assertEquals(4, asRun.job().destinationTables());
    assertEquals("768m", asRun.heap());
    assertEquals(command, asRun.asRoundFlags(), "every setting reads back as it was written");
    assertTrue(Files.exists(out.resolve("kafka.log")), "the broker's log is kept");
    assertTrue(!Files.exists(out.resolve("kafka-data")), "the broker's data is removed");
  }

  @Test
  void anOutHoldingAnEarlierRoundIsRefusedSoItsNumbersAreNeverReportedAgain(@TempDir Path out)
      throws Exception {
    Files.writeString(out.resolve("consumer_result.json"), "{\"rows_written\": 300000}");
    Files.writeString(out.resolve("notes.txt"), "the user's own file");
    StringWriter err = new StringWriter();
    CommandLine cli = IngestbenchCommand.commandLine().setErr(new PrintWriter(err));
    assertEquals(
        ExitCodes.USAGE,
        cli.execute(
            "round", "--out", out.toString(), "--messages", "1000", "--live-messages", "0"));
    assertTrue(
        err.toString().contains("holds an earlier round's files (consumer_result.json)")
            && err.toString().contains("--force"),
        err.toString());
    assertTrue(
        Files.exists(out.resolve("consumer_result.json")), "nothing is deleted without --force");
    assertTrue(Files.exists(out.resolve("notes.txt")));
  }

  @Test
  void aConsumerThatTimesOutFailsTheRoundWithExitThreeNotAsALoss(@TempDir Path out)
      throws Exception {
    int exit =
        IngestbenchCommand.commandLine()
            .execute(
                "round",
                "--out",
                out.toString(),
                // More than any consumer writes in 5 s of its life (20,000 rows/s from its first
                // millisecond): 1,000 were once enough, until consumers started sooner.
                "--messages",
                "100000",
                "--live-messages",
                "0",
                "--timeout",
                "5",
                "--heap",
                "768m");
    assertEquals(
        ExitCodes.FAILED,
        exit,
        "a timeout is a round that could not be carried out, not a verification result");
    JsonNode s = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    assertEquals(false, s.get("complete").asBoolean(), "the summary says it is incomplete");
    // What it did not account for is mostly still in its subscription, as its verification read it.
    assertTrue(
        s.get("left").asLong() > 0 && s.get("left").asLong() <= s.get("lost").asLong(),
        s.toString());
    assertTrue(s.get("stop_reason").asText().contains("timeout"), s.toString());
    // It says which messages it was still waiting for.
    assertTrue(
        s.get("stop_reason").asText().matches(".*missing event indexes: [0-9,]+(-[0-9,]+)?.*"),
        s.toString());
  }

  @Test
  void aBigQueryEmulatorThatDiesFailsTheRoundAtOnceWithItsLastLines(@TempDir Path out)
      throws Exception {
    StringWriter err = new StringWriter();
    CommandLine cli = IngestbenchCommand.commandLine();
    cli.setErr(new PrintWriter(err, true));
    // Long enough that only the dead server can end it early: 60,000 live messages at 1,000/s.
    CompletableFuture<Integer> round =
        CompletableFuture.supplyAsync(
            () ->
                cli.execute(
                    "round",
                    "--out",
                    out.toString(),
                    "--messages",
                    "70000",
                    "--live-messages",
                    "60000",
                    "--live-rate",
                    "1000",
                    "--heap",
                    "768m",
                    "--timeout",
                    "300"));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    Optional<ProcessHandle> server = Optional.empty();
    while (server.isEmpty() && !round.isDone() && System.nanoTime() < deadline) {
      Thread.sleep(500);
      if (Files.exists(out.resolve("consumer.log"))) {
        server =
            ProcessHandle.current()
                .descendants()
                .filter(p -> commandLine(p).contains("BigQueryEmulatorCommand"))
                .findFirst();
      }
    }
    assertTrue(server.isPresent(), "the round started its BigQuery emulator and a consumer");
    Thread.sleep(3_000);
    List<ProcessHandle> children = ProcessHandle.current().descendants().toList();
    long killedAt = System.nanoTime();
    server.get().destroyForcibly(); // SIGKILL: no goodbye, as an out-of-memory kill
    int exit = round.get(60, TimeUnit.SECONDS);
    double seconds = (System.nanoTime() - killedAt) / 1e9;
    assertEquals(ExitCodes.FAILED, exit, err.toString());
    assertTrue(
        err.toString().contains("the BigQuery emulator died during the round")
            && err.toString().contains("exit code"),
        err.toString());
    assertTrue(
        seconds < 30,
        "the round ended " + seconds + " s after the emulator died, not at its --timeout");
    for (ProcessHandle child : children) {
      child.onExit().get(30, TimeUnit.SECONDS);
    }
  }

  /**
   * Ctrl-C (SIGTERM here) mid-round: every process stops, the consumer writes its partial results,
   * the retained checkpoints are removed, and the round says that nothing was verified.
   */
  @Test
  void aRoundStoppedByASignalStopsEveryProcessAndLeavesPartialResultsOnly(
      @TempDir Path out, @TempDir Path logs) throws Exception {
    Path log = logs.resolve("round.log");
    Process round =
        IngestbenchProcess.start(
            log,
            "round",
            "--out",
            out.toString(),
            "--messages",
            "70000",
            "--live-messages",
            "60000",
            "--live-rate",
            "1000",
            "--kill-consumer-at",
            "600",
            "--heap",
            "768m",
            "--timeout",
            "300");
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (round.isAlive()
          && System.nanoTime() < deadline
          && !(Files.exists(out.resolve("checkpoints"))
              && Files.readString(log).contains("accounted for"))) {
        Thread.sleep(500);
      }
      assertTrue(
          round.isAlive() && Files.exists(out.resolve("checkpoints")),
          "the consumer is running: " + Files.readString(log));
      List<ProcessHandle> children = round.descendants().toList();
      if (ListeningSockets.supported()) {
        // Every server of a running round (the emulators, the consumer's embedded Flink) on
        // loopback.
        List<ProcessHandle> all = new ArrayList<>(children);
        all.add(round.toHandle());
        List<ListeningSockets.Socket> sockets = ListeningSockets.of(all);
        assertTrue(sockets.size() >= 3, "the emulators and the consumer listen: " + sockets);
        assertEquals(
            List.of(),
            sockets.stream().filter(ListeningSockets.Socket::wildcard).toList(),
            "no server of the round listens on every interface");
      }
      round.destroy(); // SIGTERM, as Ctrl-C
      assertTrue(round.waitFor(60, TimeUnit.SECONDS), "the round stopped");
      String output = Files.readString(log);
      assertEquals(143, round.exitValue(), output);
      assertTrue(output.contains("[round] Stopped: nothing was verified"), output);
      for (ProcessHandle child : children) {
        child.onExit().get(30, TimeUnit.SECONDS);
      }
      assertTrue(!Files.exists(out.resolve("checkpoints")), "the retained checkpoints are removed");
      JsonNode result = new ObjectMapper().readTree(out.resolve("consumer_result.json").toFile());
      assertTrue(result.get("stop_reason").asText().contains("asked to stop"), result.toString());
      assertTrue(
          !Files.exists(out.resolve("summary.json")), "no verdict for a round that did not finish");
    } finally {
      round.destroyForcibly();
    }
  }

  /**
   * A failed child round's own logs are in its temporary --out: the failure message carries their
   * ends.
   */
  private static String lastLines(Path file) throws IOException {
    if (!Files.exists(file)) {
      return "";
    }
    List<String> lines = Files.readAllLines(file);
    return "\n--- "
        + file.getFileName()
        + " (last 40 lines)\n"
        + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
  }

  /** The ends of a round's files, for a failure message (a lambda cannot throw IOException). */
  private static String endsOf(Path out, String... files) {
    StringBuilder ends = new StringBuilder();
    for (String file : files) {
      try {
        ends.append(lastLines(out.resolve(file)));
      } catch (IOException e) {
        ends.append("\n--- ").append(file).append(": ").append(e);
      }
    }
    return ends.toString();
  }

  /**
   * From /proc: ProcessHandle.Info gives no command line for one as long as a round's classpath.
   */
  private static String commandLine(ProcessHandle process) {
    try {
      return new String(
          Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline")),
          StandardCharsets.ISO_8859_1);
    } catch (IOException gone) {
      return "";
    }
  }

  /**
   * A round's JVM killed with SIGKILL runs no shutdown hook: every process it started must still
   * stop by itself (the servers read their standard input, the round's pipe, to its end; the
   * consumers watch the round's process), and the consumer writes what it has.
   */
  @Test
  void aRoundKilledWithSigkillLeavesNoProcessBehind(@TempDir Path out, @TempDir Path logs)
      throws Exception {
    Path log = logs.resolve("round.log");
    Process round =
        IngestbenchProcess.start(
            log,
            "round",
            "--out",
            out.toString(),
            "--messages",
            "70000",
            "--live-messages",
            "60000",
            "--live-rate",
            "1000",
            "--heap",
            "768m",
            "--timeout",
            "300");
    List<ProcessHandle> children = new ArrayList<>();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (round.isAlive()
          && System.nanoTime() < deadline
          && !Files.readString(log).contains("accounted for")) {
        Thread.sleep(500);
      }
      children.addAll(round.descendants().toList());
      assertTrue(
          round.isAlive() && children.size() >= 3,
          "the emulators and the consumer run: " + Files.readString(log));
      round.destroyForcibly(); // SIGKILL: no hook of the round's runs
      assertTrue(round.waitFor(10, TimeUnit.SECONDS));
      for (ProcessHandle child : children) {
        try {
          child.onExit().get(60, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
          throw new AssertionError("left behind: " + child.info().commandLine().orElse("?"), e);
        }
      }
      JsonNode result = new ObjectMapper().readTree(out.resolve("consumer_result.json").toFile());
      assertTrue(
          result.get("stop_reason").asText().contains("the process that started it is gone"),
          result.toString());
    } finally {
      round.destroyForcibly();
      children.forEach(ProcessHandle::destroyForcibly);
    }
  }

  @Test
  void limitsAndFaultsAreCheckedBeforeAnythingStarts() {
    StringWriter err = new StringWriter();
    CommandLine cli = IngestbenchCommand.commandLine();
    cli.setErr(new PrintWriter(err));
    assertEquals(ExitCodes.USAGE, cli.execute("round", "--fault", "explode=1"));
    assertTrue(err.toString().contains("--fault explode=1 is not a fault"), err.toString());
    assertEquals(ExitCodes.USAGE, cli.execute("round", "--jobs", "2", "--sink", "in-process"));
    assertEquals(
        ExitCodes.USAGE,
        cli.execute("round", "--partitions", "8"),
        "--partitions without --source kafka");
    assertEquals(ExitCodes.USAGE, cli.execute("round", "--source", "kinesis"));
    assertEquals(
        ExitCodes.USAGE, cli.execute("round", "--source", "kafka", "--consumer-groups", "half"));
    assertEquals(ExitCodes.USAGE, cli.execute("round", "--message-format", "xml"));
    assertEquals(ExitCodes.USAGE, cli.execute("round", "--max-dead-letters", "-1"));
    assertEquals(ExitCodes.USAGE, cli.execute("round", "--kill-consumer-at", "0"));
    assertEquals(
        ExitCodes.USAGE, cli.execute("round", "--kill-consumer-at", "30", "--sink", "in-process"));
    assertTrue(err.toString().contains("needs --sink emulator"), err.toString());
  }

  @Test
  void inconsistentFlagsFailWithUsageExitCodeAndTheReason() {
    StringWriter err = new StringWriter();
    CommandLine cli = IngestbenchCommand.commandLine();
    cli.setErr(new PrintWriter(err));
    int exit = cli.execute("round", "--messages", "10", "--live-messages", "20");
    assertEquals(ExitCodes.USAGE, exit);
    assertTrue(
        err.toString().contains("--live-messages 20 must be between 0 and --messages (10)"),
        err.toString());
  }
}
