package dev.ingestbench.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ingestbench.analysis.diagnosis.Verdict;
import dev.ingestbench.analysis.source.TableAppendsCsv;
import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.RunFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every round names what limited it, from recorded rounds on 2 vCPUs (src/test/resources/recorded):
 * each limit where it showed, and not where another did.
 */
class RoundLimitTest {
  private static final Path RECORDED = Path.of("src/test/resources/recorded");

  private static RoundAnalysis round(String name) throws Exception {
    return RoundAnalysis.of(RECORDED.resolve(name));
  }

  @Test
  void aBacklogHeldAtOnceIsLimitedByThePubsubEmulatorNotThePipeline() throws Exception {
    RoundAnalysis a = round("round-backlog-1m");
    RoundLimit limit = RoundLimit.of(a);
    assertEquals("source-emulator", limit.name(), limit.evidence());
    assertTrue(limit.evidence().startsWith("the Pub/Sub emulator used 0.8"), limit.evidence());
    assertTrue(limit.evidence().contains("round --feed"), limit.evidence());
    List<String> verdicts = RoundDiagnosis.of(a).stream().map(Verdict::verdict).toList();
    assertEquals(List.of("Source-bound: the Pub/Sub emulator"), verdicts);
    RoundSummary s = RoundSummaryJson.of(a);
    assertEquals("source-emulator", s.limitedBy());
    assertEquals(limit.evidence(), s.limitedByEvidence());
  }

  @Test
  void theSameBacklogFedIsLimitedByTheMachineAndTheSourceDoesNotFire() throws Exception {
    RoundAnalysis a = round("round-fed-1m");
    RoundLimit limit = RoundLimit.of(a);
    assertEquals("machine-cpu", limit.name(), limit.evidence());
    assertTrue(limit.evidence().contains("the harness used"), limit.evidence());
    assertFalse(
        RoundDiagnosis.of(a).stream().anyMatch(v -> v.verdict().startsWith("Source-bound")),
        "the Pub/Sub emulator was well below a core");
  }

  @Test
  void consumersAtTheirCpuAreTheLimitBeforeTheMachineTheyFill() throws Exception {
    RoundLimit limit = RoundLimit.of(round("round-kafka-two-jobs-fed"));
    assertEquals("consumer-cpu", limit.name(), limit.evidence());
    assertTrue(limit.evidence().startsWith("the consumers used 9"), limit.evidence());
  }

  @Test
  void otherWorkOnTheMachineIsNamedBeforeWhatTheRoundItselfUsed() throws Exception {
    RoundLimit limit = RoundLimit.of(round("round-fed-1m-beside-a-build"));
    assertEquals("machine-cpu", limit.name(), limit.evidence());
    assertTrue(limit.evidence().startsWith("other work took 1"), limit.evidence());
  }

  @Test
  void theDefaultRoundIsMachineBoundNotConsumerOrSourceBound() throws Exception {
    RoundLimit limit = RoundLimit.of(round("round-default"));
    assertEquals("machine-cpu", limit.name(), limit.evidence());
  }

  @Test
  void thePubsubEmulatorIsTheLimitOnlyAtItsCeilingOnAMachineWithRoom() {
    MachineLoad below =
        new MachineLoad(
            2, 100, java.util.Map.of("consumer", 60.0, "emulator", 40.0, "bigquery-emulator", 5.0));
    assertTrue(
        RoundLimit.source(below, 0.3, 2, false, "").isEmpty(),
        "the Pub/Sub emulator at 0.4 cores is not at its ceiling");
    MachineLoad atCeiling =
        new MachineLoad(
            2, 100, java.util.Map.of("consumer", 50.0, "emulator", 85.0, "bigquery-emulator", 5.0));
    RoundLimit limit = RoundLimit.source(atCeiling, 0.25, 2, false, "").orElseThrow();
    assertEquals("source-emulator", limit.name());
    assertTrue(limit.evidence().contains("round --feed"), limit.evidence());
    assertFalse(
        RoundLimit.source(atCeiling, 0.25, 2, true, "").orElseThrow().evidence().contains("--feed"),
        "no advice to feed a round that was fed");
    MachineLoad saturated =
        new MachineLoad(
            2,
            100,
            java.util.Map.of("consumer", 100.0, "emulator", 85.0, "bigquery-emulator", 5.0));
    assertTrue(
        RoundLimit.source(saturated, 0.5, 2, false, "").isEmpty(),
        "on a saturated machine the emulator is starved, not at its ceiling");
    MachineLoad kafka = new MachineLoad(2, 100, java.util.Map.of("consumer", 50.0, "kafka", 90.0));
    assertTrue(
        RoundLimit.source(kafka, 0.25, 2, false, "").isEmpty(),
        "the Kafka broker's ceiling is not one core");
  }

  @Test
  void throttledOrRefusedAppendsAreTheQuotaAndRefusedConnectionsTheLimitBeforeAnyCpu(
      @TempDir Path dir) throws Exception {
    RecordedRounds.copy(RECORDED.resolve("round-kafka-two-jobs-fed"), dir);
    assertEquals("consumer-cpu", RoundLimit.of(RoundAnalysis.of(dir)).name());
    editEmulatorStatus(dir, "peak_connections", 999);
    assertEquals(
        "consumer-cpu",
        RoundLimit.of(RoundAnalysis.of(dir)).name(),
        "near the connection limit, nothing refused: not the limit");
    editEmulatorStatus(dir, "connections_refused", 3);
    RoundLimit connections = RoundLimit.of(RoundAnalysis.of(dir));
    assertEquals("connections", connections.name(), connections.evidence());
    assertTrue(connections.evidence().contains("3 refused"), connections.evidence());
    editEmulatorStatus(dir, "throttled_appends", 12);
    RoundLimit quota = RoundLimit.of(RoundAnalysis.of(dir));
    assertEquals("quota", quota.name(), quota.evidence());
    assertTrue(quota.evidence().contains("slowed 12 appends"), quota.evidence());
  }

  /**
   * 100 tables made as the write reached them: the round waited on Beam making them, whatever its
   * CPU; the same round with the tables made ahead did not.
   */
  @Test
  void tablesMadeAsTheWriteReachedThemAreTheLimitAndNotWhenMadeAhead() throws Exception {
    RoundLimit ifNeeded = RoundLimit.of(round("round-100-tables-if-needed"));
    assertEquals("table-creation", ifNeeded.name(), ifNeeded.evidence());
    assertTrue(
        ifNeeded
            .evidence()
            .startsWith(
                "the last of 100 tables made as the write reached each (CREATE_IF_NEEDED) had its"
                    + " first row 61 s after the consumer started"),
        ifNeeded.evidence());
    RoundSummary.Destinations d =
        DestinationFigures.of(round("round-100-tables-if-needed")).orElseThrow();
    assertEquals(100, d.tablesWritten());
    assertEquals("if-needed", d.tableCreation());
    assertEquals(61.4, d.allTablesSeconds(), 0.05, "from tables.csv and the consumer's start");
    assertEquals(100, d.tablesGetCalls());
    assertEquals(100, d.tablesInsertCalls());
    assertEquals(d.expectedHottestShare(), d.hottestShare(), 0.01, "zipf:1.1's table 0");
    long rows =
        round("round-100-tables-if-needed").tables().stream()
            .mapToLong(TableAppendsCsv.Table::rows)
            .sum();
    assertEquals(100_000, rows, "every row in tables.csv");
    RoundLimit ahead = RoundLimit.of(round("round-100-tables-ahead"));
    assertTrue(!ahead.name().equals("table-creation"), ahead.name() + ": " + ahead.evidence());

    // An iteration's records carry the destinations' figures and the consumer's heap; what the
    // recording did not time (tables.get's answers, recorded since) is left out, never 0.
    List<String> metrics =
        new dev.ingestbench.analysis.scenario.ResultRecords(
                new dev.ingestbench.analysis.scenario.ResultRecords.Step(
                    "run", "s", "local", 1, "if-needed", "2026-11-29T00:00:00Z"))
                .round(
                    "job",
                    RoundSummaryJson.of(round("round-100-tables-if-needed")),
                    java.util.Map.of())
                .records()
                .stream()
                .map(r -> r.metric())
                .toList();
    assertTrue(
        metrics.containsAll(
            List.of("tables_insert_calls", "all_tables_seconds", "peak_consumer_heap_mb")),
        metrics.toString());
    assertTrue(!metrics.contains("tables_get_p99_ms"), metrics.toString());
  }

  @Test
  void noLimitShowingSaysWhatWasMeasuredAndWhatIsNotRecorded(@TempDir Path dir) throws Exception {
    quietDrain(dir);
    RoundLimit limit = RoundLimit.of(RoundAnalysis.of(dir));
    assertEquals("unknown", limit.name(), limit.evidence());
    assertTrue(limit.evidence().startsWith("no limit showed over the"), limit.evidence());
    assertTrue(
        limit.evidence().contains("not recorded: the source's time per Pull"), limit.evidence());
    assertTrue(
        limit.evidence().contains("the sink's time per append not recorded"),
        "a round recorded before the emulator kept it: " + limit.evidence());
  }

  /**
   * The same quiet drain with the BigQuery emulator's time answering appends written per second: at
   * 95% of every open connection's time the sink set the pace; at 50% it did not, and the unknown
   * verdict gives the share it measured.
   */
  @Test
  void aSinkThatKeptEveryConnectionWaitingIsTheLimitAndNotAtHalf(@TempDir Path dir)
      throws Exception {
    quietDrain(dir);
    appendServerTime(dir, 0.95);
    RoundLimit sink = RoundLimit.of(RoundAnalysis.of(dir));
    assertEquals("sink", sink.name(), sink.evidence());
    assertTrue(
        sink.evidence().startsWith("the BigQuery emulator kept each open connection waiting 95%"),
        sink.evidence());

    appendServerTime(dir, 0.5);
    RoundLimit half = RoundLimit.of(RoundAnalysis.of(dir));
    assertEquals("unknown", half.name(), half.evidence());
    assertTrue(half.evidence().contains("waiting 50% of the steady window"), half.evidence());
  }

  /**
   * The same quiet drain with the embedded Flink's checkpoints written per second: one a second
   * taking 950 ms, back to back, is the pipeline's own waiting; one a second taking 200 ms is not,
   * and the unknown verdict gives what it measured. Without the columns it says they were not
   * recorded.
   */
  @Test
  void checkpointsBackToBackAreTheLimitAndShortOnesNot(@TempDir Path dir) throws Exception {
    quietDrain(dir);
    RoundLimit none = RoundLimit.of(RoundAnalysis.of(dir));
    assertTrue(
        none.evidence().contains("the pipeline's own waiting on checkpoints not in these samples"),
        none.evidence());

    checkpointEverySecond(dir, 950);
    RoundLimit waited = RoundLimit.of(RoundAnalysis.of(dir));
    assertEquals("checkpoints", waited.name(), waited.evidence());
    // 89 samples over the window's 91 s (the sampler skipped two seconds): 89 x 950 ms in 91 s.
    assertTrue(
        waited.evidence().startsWith("89 checkpoints completed in 91 s of the steady window")
            && waited.evidence().contains("up to 950 ms: checkpointing 93%"),
        waited.evidence());

    checkpointEverySecond(dir, 200);
    RoundLimit shortOnes = RoundLimit.of(RoundAnalysis.of(dir));
    assertEquals("unknown", shortOnes.name(), shortOnes.evidence());
    assertTrue(
        shortOnes.evidence().contains("up to 200 ms: checkpointing 20% of it"),
        shortOnes.evidence());
  }

  /**
   * Writes one completed checkpoint a second, each taking {@code ms}, into the recorded consumer
   * samples (which have no such columns), and their checksum.
   */
  private static void checkpointEverySecond(Path dir, long ms) throws IOException {
    Path file = dir.resolve(RunFiles.CONSUMER_SAMPLES);
    List<String> lines = Files.readAllLines(file);
    String header = lines.get(0);
    String columns = ",checkpoints_completed,checkpoint_last_ms";
    boolean had = header.endsWith(columns);
    List<String> out = new ArrayList<>();
    out.add(had ? header : header + columns);
    long completed = 0;
    for (String line : lines.subList(1, lines.size())) {
      String kept =
          had ? line.substring(0, line.lastIndexOf(',', line.lastIndexOf(',') - 1)) : line;
      out.add(kept + "," + ++completed + "," + ms);
    }
    RecordedRounds.rewrite(dir, RunFiles.CONSUMER_SAMPLES, out);
  }

  /**
   * A recorded drain with the Pub/Sub emulator at half its CPU, the machine's busy time less by as
   * much: nothing reaches a limit.
   */
  private static void quietDrain(Path dir) throws Exception {
    RecordedRounds.copy(RECORDED.resolve("round-backlog-1m"), dir);
    Path cpu = dir.resolve(RunFiles.PROCESSES_CPU);
    java.util.Map<String, Double> taken = new java.util.HashMap<>();
    List<String> halved = new ArrayList<>();
    for (String line : Files.readAllLines(cpu)) {
      String[] f = line.split(",");
      if (f[1].equals("emulator")) {
        double half = Double.parseDouble(f[2]) / 2;
        taken.merge(f[0], half, Double::sum);
        halved.add(f[0] + "," + f[1] + "," + String.format(Locale.ROOT, "%.2f", half));
      } else {
        halved.add(line);
      }
    }
    RecordedRounds.rewrite(dir, RunFiles.PROCESSES_CPU, halved);
    Path machine = dir.resolve(RunFiles.MACHINE_CPU);
    List<String> quieter = new ArrayList<>();
    for (String line : Files.readAllLines(machine)) {
      String[] f = line.split(",");
      quieter.add(
          taken.containsKey(f[0])
              ? f[0]
                  + ","
                  + String.format(
                      Locale.ROOT, "%.2f", Math.max(0, Double.parseDouble(f[1]) - taken.get(f[0])))
                  + ","
                  + f[2]
                  + ","
                  + f[3]
              : line);
    }
    RecordedRounds.rewrite(dir, RunFiles.MACHINE_CPU, quieter);
  }

  /**
   * Writes {@code share} of every open connection-second as the emulator's time answering appends
   * into the recorded connections file (which has no such column), and its checksum.
   */
  private static void appendServerTime(Path dir, double share) throws IOException {
    Path file = dir.resolve(RunFiles.CONNECTIONS);
    List<String> lines = Files.readAllLines(file);
    List<String> out = new ArrayList<>();
    String header = lines.get(0);
    boolean had = header.endsWith(",append_server_us");
    out.add(had ? header : header + ",append_server_us");
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",");
      long micros = Math.round(Integer.parseInt(f[2]) * share * 1e6);
      String kept = had ? line.substring(0, line.lastIndexOf(',')) : line;
      out.add(kept + "," + micros);
    }
    RecordedRounds.rewrite(dir, RunFiles.CONNECTIONS, out);
  }

  private static void editEmulatorStatus(Path dir, String key, long value) throws IOException {
    ObjectMapper json = new ObjectMapper();
    Path status = dir.resolve(RunFiles.BIGQUERY_EMULATOR);
    ObjectNode tree = (ObjectNode) json.readTree(status.toFile());
    tree.put(key, value);
    json.writeValue(status.toFile(), tree);
  }

  @Test
  void oneJobsDirectoryOfSeveralNamesNoLimitOfItsOwn() throws Exception {
    RoundSummary job =
        RoundSummaryJson.of(RoundAnalysis.of(RECORDED.resolve("round-kafka-two-jobs-fed/job-1")));
    assertEquals(null, job.limitedBy(), "the round's summary.json names it");
  }
}
