package dev.ingestbench.cli.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.cli.IngestbenchCommand;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.harness.staged.LoadTestStage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scenario that starts by measuring its source: a pubsub_load stage, run for real on the run's
 * emulator.
 */
@Tag("e2e")
// A long timeout: its Pub/Sub emulator may be the machine's first and build pstest.
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class LoadTestStageTest {
  private static final String SCENARIO =
      """
      name: source-check
      description: Measures the source before any job starts.
      source: {kind: pubsub, topic: taxi-rides}
      publish: {messages: 1000, message_size: 500, backlog: 1000}
      jobs:
        a: {}
      stages:
        - {name: source-capacity, pubsub_load: {rate: 300, burn_in: 1s, duration: 3s, threads: 2, message_size: 500}}
      """;

  private static int run(StringWriter err, String... args) {
    return IngestbenchCommand.commandLine().setErr(new PrintWriter(err, true)).execute(args);
  }

  @Test
  void aLoadTestStageMeasuresTheSourceAndRecordsItsFigures(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("source-check.yaml");
    Files.writeString(file, SCENARIO);
    Path out = dir.resolve("run");
    StringWriter err = new StringWriter();
    assertEquals(0, run(err, "run", file.toString(), "--out", out.toString()), err.toString());
    Path test = out.resolve("pubsub-load-01-source-capacity");
    assertTrue(
        Files.exists(test.resolve("summary.json")) && Files.exists(test.resolve("samples.csv")));
    assertTrue(
        Files.exists(out.resolve("status").resolve("01-source-capacity.json")),
        "the stage is marked done");
    List<ResultRecord> results =
        Files.readAllLines(out.resolve("results.jsonl")).stream()
            .map(
                l -> {
                  try {
                    return RunJson.fromJson(l, ResultRecord.class);
                  } catch (Exception e) {
                    throw new AssertionError(e);
                  }
                })
            .toList();
    Map<String, Double> byMetric =
        results.stream()
            .filter(r -> r.job().equals(LoadTestStage.JOB))
            .collect(Collectors.toMap(ResultRecord::metric, ResultRecord::value));
    assertEquals(300, byMetric.get("pubsub_published_messages_per_second"), 90);
    // What the subscriber received in the 3 s window holds what it had not yet caught up on from
    // the burn-in: 393/s on a loaded machine. The stage records it; pubsub-load's own tests judge
    // the rate, and every message arrived (missing 0).
    assertTrue(byMetric.get("pubsub_received_messages_per_second") > 0, byMetric.toString());
    assertEquals(0, byMetric.get("pubsub_missing"));
    assertTrue(byMetric.get("pubsub_publish_p99_ms") > 0);
    String report = Files.readString(out.resolve("report.md"));
    assertTrue(
        report.contains("## Source capacity")
            && report.contains("(pubsub-load-01-source-capacity/report.md)"),
        report);
    // a rerun finds the stage done and only rewrites the report
    assertEquals(0, run(new StringWriter(), "run", file.toString(), "--out", out.toString()));
  }

  @Test
  void badLoadTestFlagsAreRefusedBeforeAnythingStarts(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("bad.yaml");
    Files.writeString(
        file, SCENARIO.replace("rate: 300", "rate: -5").replace("threads: 2", "topic: mine"));
    StringWriter err = new StringWriter();
    assertEquals(2, run(err, "run", file.toString(), "--out", dir.resolve("run").toString()));
    assertTrue(err.toString().contains("pubsub_load.topic: is set by the runner"), err.toString());
    Files.writeString(file, SCENARIO.replace("rate: 300", "rate: -5"));
    err = new StringWriter();
    assertEquals(2, run(err, "run", file.toString(), "--out", dir.resolve("run").toString()));
    assertTrue(
        err.toString().contains("stages.source-capacity.pubsub_load: --rate -5.0 is out of range"),
        err.toString());
    assertTrue(
        !Files.exists(dir.resolve("run").resolve("run.json")), "nothing was started or written");
  }
}
