package dev.ingestbench.analysis.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.RunFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A round directory with known raw data: the report's numbers must be the ones the data implies.
 */
class RoundReportTest {
  private static final long T0 = 1_770_890_040L; // 2026-02-12T09:54:00Z
  @TempDir Path dir;

  @BeforeEach
  void writeRound() throws IOException {
    StringBuilder timeline =
        new StringBuilder(
            "start_timestamp,project_id,project_number,dataset_id,table_id,stream_type,error_code,total_requests,total_rows,total_input_bytes\n");
    StringBuilder cpu =
        new StringBuilder(
            "epoch_second,cpu_seconds,vcpus,rows_visible,accounted_for,open_append_clients,heap_used_bytes\n");
    long[] rates = new long[26];
    rates[0] = 1_000;
    rates[1] = 3_000;
    rates[2] = 6_000;
    for (int i = 3; i < 23; i++) {
      rates[i] = i % 2 == 0 ? 11_000 : 9_000; // steady: mean 10,000
    }
    rates[23] = 3_000;
    rates[24] = 1_000;
    rates[25] = 500;
    for (int i = 0; i < rates.length; i++) {
      String ts =
          DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss")
              .withZone(ZoneOffset.UTC)
              .format(Instant.ofEpochSecond(T0 + i));
      timeline
          .append(ts)
          .append(",p,,d,rides,BUFFERED,OK,10,")
          .append(rates[i])
          .append(',')
          .append(rates[i] * 600)
          .append('\n');
      cpu.append(T0 + i + 1).append(",1.0,2,0,0,2,1000\n");
    }
    timeline.append("2026-02-12 09:54:05,p,,d,rides_dlq,DEFAULT,OK,1,3,900\n");
    Files.writeString(dir.resolve(RunFiles.TIMELINE_PER_SECOND), timeline);
    StringBuilder processes = new StringBuilder("epoch_second,process,cpu_seconds\n");
    for (int i = 0; i < rates.length; i++) {
      processes
          .append(T0 + i + 1)
          .append(",emulator,0.5\n")
          .append(T0 + i + 1)
          .append(",consumer,1.0\n");
    }
    Files.writeString(dir.resolve(RunFiles.PROCESSES_CPU), processes);
    Files.writeString(dir.resolve(RunFiles.CONSUMER_SAMPLES), cpu);
    ObjectMapper json = new ObjectMapper();
    long total = 0;
    for (long r : rates) {
      total += r;
    }
    json.writeValue(
        dir.resolve(RunFiles.CONSUMER_RESULT).toFile(),
        Map.ofEntries(
            Map.entry("runner", "FlinkRunner"),
            Map.entry("write_method", "exactly-once"),
            Map.entry("row_format", "json-column"),
            Map.entry("destination_tables", 1),
            Map.entry("rows_written", total),
            Map.entry("distinct_message_ids", total),
            Map.entry("duplicates", 0),
            Map.entry("dead_lettered", 3),
            Map.entry("accounted_for", total + 3),
            Map.entry(
                "latency",
                Map.of(
                    "samples", total, "p50_ms", 800, "p90_ms", 900, "p99_ms", 1_500, "max_ms",
                    2_000)),
            Map.entry("caught_up_at", "2026-02-12T09:54:25Z")));
    json.writeValue(
        dir.resolve(RunFiles.PUBLISHER_BACKLOG).toFile(), Map.of("published", total + 3));
    json.writeValue(
        dir.resolve(RunFiles.ROUND).toFile(),
        Map.of("messages", total + 3, "live_messages", 1_000));
  }

  @Test
  void summaryHoldsTheNumbersTheRawDataImplies() throws IOException {
    RoundReport.write(dir);
    JsonNode s = new ObjectMapper().readTree(dir.resolve(RunFiles.SUMMARY).toFile());
    assertEquals(
        10_000.0,
        s.get("rows_per_second").asDouble(),
        1e-6,
        "steady mean of the 20 alternating seconds");
    assertEquals(5_000.0, s.get("rows_per_second_per_vcpu").asDouble(), 1e-6);
    assertEquals(
        0.5, s.get("cpu_utilisation").asDouble(), 1e-9, "1 CPU-second per second on 2 vCPUs");
    assertEquals(10_000.0, s.get("rows_per_cpu_second").asDouble(), 1e-6);
    assertEquals(
        0.5, s.get("consumer_share").asDouble(), 1e-9, "the consumer's 1.0 CPU-s/s of 2 vCPUs");
    assertEquals(
        0.25, s.get("harness_share").asDouble(), 1e-9, "the emulator's 0.5 CPU-s/s of 2 vCPUs");
    assertEquals(
        6.0, s.get("mb_per_second").asDouble(), 1e-9, "600 bytes per row, MB = 10^6 bytes");
    assertEquals(0, s.get("lost").asLong(), "dead letters count as accounted for");
    assertEquals(3, s.get("dead_lettered").asLong());
    JsonNode estimate = s.get("rows_per_second_estimate");
    assertEquals(20, estimate.get("n").asLong());
    assertTrue(
        estimate.get("ci95_low").asDouble() < 10_000
            && estimate.get("ci95_high").asDouble() > 10_000);
    assertEquals(20, s.get("phases").get("steady").get("seconds").asInt());
    assertEquals(800, s.get("p50_latency_ms").asLong());
    assertTrue(
        s.get("live_p50_latency_ms").isNull(),
        "no message was published after catch-up: no number");
    assertTrue(
        s.get("live_latency_note")
            .asText()
            .contains("no message was published after the consumer caught up"),
        s.get("live_latency_note").asText());
    for (String field :
        new String[] {
          "published",
          "written",
          "distinct_message_ids",
          "duplicates",
          "dead_lettered",
          "rows_per_second",
          "rows_per_second_per_vcpu",
          "cpu_utilisation",
          "p50_latency_ms",
          "p99_latency_ms",
          "runner",
          "write_method"
        }) {
      assertTrue(s.has(field), "summary.json lacks " + field);
    }
  }

  @Test
  void reportHasTheTablesAndChartsAPersonReads() throws IOException {
    RoundReport.write(dir);
    String md = Files.readString(dir.resolve(RunFiles.REPORT));
    assertTrue(md.contains("| Rows/s (steady state) | 10,000 ±"), md);
    assertTrue(md.contains("| Minute (UTC) | MB/min | MB/s | Rows | Rows/sec |"));
    assertTrue(md.contains("| steady | 09:54:03 | 09:54:23 | 20 |"), md);
    assertTrue(md.contains("![rows per second](throughput.svg)"));
    assertTrue(md.contains("| emulator | 10.0 | 25.0% | 13.0 | 25.0% |"), md);
    assertTrue(md.contains("| consumer | 20.0 | 50.0% | 26.0 | 50.0% |"), md);
    for (String chart : new String[] {RunFiles.THROUGHPUT_CHART, RunFiles.CPU_CHART}) {
      String svg = Files.readString(dir.resolve(chart));
      assertTrue(svg.contains("<svg"), chart + " is an SVG");
    }
    assertTrue(
        !md.contains("duplicate(s): a row with an event index already written"),
        "none: no such line");
  }

  /**
   * A round is a scenario of one stage: its report has the scenario report's "Stages" and per-job
   * "Verification" tables, written by the same code from the same files (the stage's marker, the
   * records the round wrote as it verified each job), then what the round alone says. A job that
   * lost messages is in bold in its row.
   */
  @Test
  void aRoundsStageAndEachJobsVerificationAreTheScenarioReportsOwn() throws IOException {
    Files.createDirectories(dir.resolve(RunFiles.STATUS_DIRECTORY));
    Files.writeString(
        dir.resolve(RunFiles.STATUS_DIRECTORY).resolve("01-round.json"),
        "{\"step\":\"01-round\",\"stage\":\"round\",\"iteration\":1,\"jobs\":[\"job-1\"],"
            + "\"started\":[\"job-1\"],\"stopped\":[],\"condition\":\"until drained (max 11m)\","
            + "\"condition_met\":true,\"started_at\":\"2026-02-12T09:53:50Z\","
            + "\"ended_at\":\"2026-02-12T09:54:31Z\",\"segment\":1,\"load_test\":false,"
            + "\"max_rate_search\":false}");
    StringBuilder results = new StringBuilder();
    Map<String, Long> verification = new java.util.LinkedHashMap<>();
    verification.put("published", 200_000L);
    verification.put("accounted_for", 199_993L);
    verification.put("duplicates", 0L);
    verification.put("source_duplicates", 0L);
    verification.put("dead_lettered", 0L);
    verification.put("lost", 7L);
    verification.forEach(
        (metric, value) ->
            results.append(
                "{\"run_id\":\"r\",\"scenario\":\"round\",\"target\":\"local\",\"iteration\":1,"
                    + "\"stage\":\"round\",\"job\":\"job-1\",\"metric\":\""
                    + metric
                    + "\",\"value\":"
                    + value
                    + ",\"unit\":\"messages\",\"labels\":{},\"timestamp\":\"2026-02-12T09:54:31Z\"}\n"));
    Files.writeString(dir.resolve(RunFiles.RESULTS), results);

    RoundReport.write(dir);
    String md = Files.readString(dir.resolve(RunFiles.REPORT));

    dev.ingestbench.analysis.document.Document scenarios =
        new dev.ingestbench.analysis.document.Document();
    List<dev.ingestbench.contracts.StepStatus> steps =
        dev.ingestbench.contracts.ScenarioRunFiles.steps(dir);
    dev.ingestbench.analysis.stages.StagesTable.write(scenarios, steps, false);
    dev.ingestbench.analysis.stages.JobVerificationTable.write(
        scenarios, steps, dev.ingestbench.contracts.ScenarioRunFiles.results(dir));
    assertTrue(md.contains(scenarios.markdown()), "the scenario report's sections, as they are");
    assertTrue(
        md.contains("| 01 | round | until drained (max 11m) | yes | 09:53:50 | 41 s | job-1 |"),
        md);
    assertTrue(
        md.contains("| job-1 | round | 200,000 | 199,993 | 0 | 0 | 0 | n/a | n/a | **7** |"), md);
    assertTrue(
        md.indexOf("## Stages") < md.indexOf("## Verification")
            && md.contains("As the consumers counted them"),
        "then the round's own count of every row: " + md);
    assertTrue(
        md.contains("| Dead-lettered | Lost |"),
        "consumers that read to the end lost what they did not account for: " + md);
  }

  /**
   * A consumer that stopped at its timeout short of its count may have left what it did not account
   * for in its source: its own count's column is not a Lost beside the verification's, which splits
   * it into left and lost, as the round's summary line does.
   */
  @Test
  void whatAConsumerThatTimedOutDidNotAccountForIsNotCalledLost() throws IOException {
    Map<String, Object> fields = consumerResult();
    fields.put("accounted_for", ((Number) fields.get("accounted_for")).longValue() - 40);
    fields.put("stop_reason", ConsumerResult.TIMED_OUT + " after 600 s");
    writeConsumerResult(fields);
    RoundReport.write(dir);
    String md = Files.readString(dir.resolve(RunFiles.REPORT));
    assertTrue(md.contains("| Dead-lettered | Not accounted for |"), md);
    assertTrue(md.contains("**Not accounted for** counts what it had neither written"), md);
  }

  /**
   * summary.json's {@code left} is what every job left in its source as its verification recorded
   * it: null (not counted) without a job's record, the jobs' own records, not a total's.
   */
  @Test
  void summaryLeftIsEveryJobsRecordedLeftOrNull() throws IOException {
    ObjectMapper json = new ObjectMapper();
    RoundReport.write(dir);
    JsonNode uncounted = json.readTree(dir.resolve(RunFiles.SUMMARY).toFile()).path("left");
    assertTrue(
        uncounted.isNull() || uncounted.isMissingNode(), "no verification recorded: not counted");
    String record =
        "{\"run_id\":\"r\",\"scenario\":\"round\",\"target\":\"local\",\"iteration\":1,"
            + "\"stage\":\"round\",\"job\":\"%s\",\"metric\":\"left\",\"value\":%d,"
            + "\"unit\":\"messages\",\"labels\":{},\"timestamp\":\"2026-02-12T09:54:31Z\"}\n";
    Files.writeString(
        dir.resolve(RunFiles.RESULTS),
        String.format(record, ResultRecord.ALL_JOBS, 99) + String.format(record, "job-1", 12));
    RoundReport.write(dir);
    assertEquals(12, json.readTree(dir.resolve(RunFiles.SUMMARY).toFile()).get("left").asLong());
  }

  /** A consumer that read its source to the end and stopped: what it did not write is lost. */
  @Test
  void whatAConsumerThatReadToTheEndDidNotAccountForIsLost() throws IOException {
    Map<String, Object> fields = consumerResult();
    fields.put("accounted_for", ((Number) fields.get("accounted_for")).longValue() - 40);
    fields.put("stop_reason", "stopped: the process was asked to stop");
    writeConsumerResult(fields);
    RoundReport.write(dir);
    String md = Files.readString(dir.resolve(RunFiles.REPORT));
    assertTrue(md.contains("| Dead-lettered | Lost |"), md);
    assertTrue(md.contains("**Lost** counts what it had neither written"), md);
    assertFalse(md.contains("Not accounted for"), md);
  }

  /**
   * Duplicates are explained where they are counted: the sink's (the same message again) apart from
   * the source's (the same event under another message id).
   */
  @Test
  void duplicatesAreExplainedInTheVerification() throws IOException {
    ObjectMapper json = new ObjectMapper();
    Map<String, Object> fields = consumerResult();
    fields.put("duplicates", 1);
    fields.put("source_duplicates", 347);
    fields.put("rows_written", ((Number) fields.get("rows_written")).longValue() + 348);
    writeConsumerResult(fields);
    RoundReport.write(dir);
    String md = Files.readString(dir.resolve(RunFiles.REPORT));
    assertTrue(
        md.contains("1 duplicate(s): a message written again under the same message id"), md);
    assertTrue(md.contains("**The source carried 347 event(s) twice**"), md);
    int headline = md.indexOf("**The source carried 347 event(s) twice** (see Verification)");
    assertTrue(headline >= 0 && headline < md.indexOf("## Result"), "said first, in the headline");
    assertTrue(md.contains("| Duplicates | Source duplicates |"), md);
    var summary = json.readTree(dir.resolve(RunFiles.SUMMARY).toFile());
    assertEquals(1, summary.get("duplicates").asLong());
    assertEquals(347, summary.get("source_duplicates").asLong());
  }

  /**
   * A consume run of messages of any kind has only a count: what it handled without a usable index
   * (written without one, dead-lettered without one, a second message of an index) is not lost, as
   * the run itself counted when it ended ("Lost 7" beside "all 16 messages written").
   */
  @Test
  void aConsumeRunsLossCountsWhatItHandledWithoutAUsableIndex() throws IOException {
    Files.delete(dir.resolve(RunFiles.PUBLISHER_BACKLOG));
    Files.delete(dir.resolve(RunFiles.ROUND));
    ObjectMapper json = new ObjectMapper();
    Map<String, Object> fields = consumerResult();
    long accounted = ((Number) fields.get("accounted_for")).longValue();
    fields.put("expected", accounted + 4);
    fields.put("unindexed_rows", 2);
    fields.put("unindexed_dead_letters", 1);
    fields.put("source_duplicates", 1);
    writeConsumerResult(fields);
    RoundReport.write(dir);
    assertEquals(0, json.readTree(dir.resolve(RunFiles.SUMMARY).toFile()).get("lost").asLong());
    fields.put("expected", accounted + 5);
    writeConsumerResult(fields);
    RoundReport.write(dir);
    assertEquals(
        1,
        json.readTree(dir.resolve(RunFiles.SUMMARY).toFile()).get("lost").asLong(),
        "one message more than it handled: lost");
  }

  /** A fault that never fired is a warning: a clean verification then proves nothing of it. */
  @Test
  void aFaultThatNeverFiredIsAWarningAndEveryFaultSaysHowOftenItFired() throws IOException {
    ObjectMapper json = new ObjectMapper();
    json.writeValue(
        dir.resolve(RunFiles.BIGQUERY_EMULATOR).toFile(),
        Map.of(
            "jobs",
            List.of(),
            "faults",
            List.of(
                Map.of(
                    "fault",
                    "discard=0.01",
                    "fraction",
                    0.01,
                    "of",
                    "appends that reached the store",
                    "out_of",
                    57,
                    "fired",
                    0),
                Map.of(
                    "fault",
                    "unavailable=0.25",
                    "fraction",
                    0.25,
                    "of",
                    "AppendRows requests",
                    "out_of",
                    80,
                    "fired",
                    20))));
    RoundReport.write(dir);
    String md = Files.readString(dir.resolve(RunFiles.REPORT));
    assertTrue(md.contains("| `discard=0.01` | appends that reached the store | 57 | 0 |"), md);
    assertTrue(md.contains("| `unavailable=0.25` | AppendRows requests | 80 | 20 |"), md);
    assertTrue(
        md.contains(
            "**Warning:** fault discard=0.01 never fired (57 appends that reached the store; it"
                + " fires once in every 100)"),
        md);
    assertFalse(md.contains("fault unavailable=0.25 never fired"), md);
    var faults = json.readTree(dir.resolve(RunFiles.SUMMARY).toFile()).get("faults");
    assertEquals(2, faults.size());
    assertEquals("discard=0.01", faults.get(0).get("fault").asText());
    assertEquals(0.01, faults.get(0).get("fraction").asDouble());
    assertEquals(0, faults.get(0).get("fired").asLong());
    assertEquals(20, faults.get(1).get("fired").asLong());
  }

  private void processes(String... perSecond) throws IOException {
    StringBuilder processes = new StringBuilder("epoch_second,process,cpu_seconds\n");
    for (int i = 0; i < 26; i++) {
      for (String p : perSecond) {
        String[] nameAndCpu = p.split("=");
        processes
            .append(T0 + i + 1)
            .append(',')
            .append(nameAndCpu[0])
            .append(',')
            .append(nameAndCpu[1])
            .append('\n');
      }
    }
    Files.writeString(dir.resolve(RunFiles.PROCESSES_CPU), processes);
  }

  private List<String> diagnosis() throws IOException {
    return RoundDiagnosis.of(RoundAnalysis.of(dir)).stream()
        .map(v -> v.verdict() + " | " + v.evidence())
        .toList();
  }

  /** The machine, not the consumer, was the limit: every process together kept 2 vCPUs 95% busy. */
  @Test
  void aMachineBusyWithTheHarnessIsNamedWithEachShare() throws IOException {
    processes("emulator=0.5", "consumer=1.0", "bigquery-emulator=0.4");
    List<String> verdicts = diagnosis();
    assertEquals(1, verdicts.size(), verdicts.toString());
    String v = verdicts.get(0);
    assertTrue(
        v.startsWith(
            "Machine-bound: 95% of 2 vCPUs | the machine 95% busy (consumer 50%, Pub/Sub emulator"
                + " 25%, BigQuery emulator 20%) over the 20 s steady window"),
        v);
    assertTrue(
        v.contains(
            "the harness (emulators, broker, publishers) used 45.0% of the machine and the pipeline 50.0%"),
        v);
    assertTrue(!v.contains("No bottleneck"), v);
  }

  /**
   * Other work on the machine is seen, not read as the pipeline's: the whole machine's CPU beside
   * the run's processes (a CPU hog took a quarter of it).
   */
  @Test
  void otherWorkOnTheMachineIsNamedFirstWithItsShare() throws IOException {
    processes("emulator=0.5", "consumer=1.0");
    machine(1.98, 0.02);
    List<String> verdicts = diagnosis();
    RoundReport.write(dir);
    assertEquals(2, verdicts.size(), verdicts.toString());
    assertTrue(
        verdicts
            .get(0)
            .startsWith(
                "Other work on the machine: 25% of 2 vCPUs | the machine 100% busy: this run's"
                    + " processes 75% (consumer 50%, Pub/Sub emulator 25%), other processes 24%,"
                    + " steal 1% over the 20 s steady window"),
        verdicts.get(0));
    assertTrue(verdicts.get(1).startsWith("Machine-bound: 100% of 2 vCPUs"), verdicts.get(1));
    var summary = new ObjectMapper().readTree(dir.resolve(RunFiles.SUMMARY).toFile());
    assertEquals(1.0, summary.get("machine_busy_share").asDouble(), 1e-9);
    assertEquals(0.24, summary.get("other_processes_share").asDouble(), 1e-9);
    assertEquals(0.01, summary.get("steal_share").asDouble(), 1e-9);
    String md = Files.readString(dir.resolve(RunFiles.REPORT));
    assertTrue(
        md.indexOf("**Other work on the machine: 25% of 2 vCPUs**") < md.indexOf("## Result"),
        "said in the headline, before the result");
  }

  @Test
  void aQuietMachineHasNoOtherWorkVerdict() throws IOException {
    machine(1.52, 0);
    List<String> verdicts = diagnosis();
    RoundReport.write(dir);
    assertEquals(
        List.of(
            "No bottleneck signal | consumer CPU below 90%, the machine 76% busy: this run's"
                + " processes 75% (consumer 50%, Pub/Sub emulator 25%), other processes 1%, steal 0%,"
                + " no quota throttling, connections below the limit"),
        verdicts);
    assertEquals(
        0.01,
        new ObjectMapper()
            .readTree(dir.resolve(RunFiles.SUMMARY).toFile())
            .get("other_processes_share")
            .asDouble(),
        1e-9);
  }

  /** The whole machine's CPU per second: {@code busy} and {@code steal} CPU-seconds of 2. */
  private void machine(double busy, double steal) throws IOException {
    machine(busy, steal, 2);
  }

  private void machine(double busy, double steal, double total) throws IOException {
    StringBuilder machine =
        new StringBuilder("epoch_second,busy_cpu_seconds,steal_cpu_seconds,total_cpu_seconds\n");
    for (int i = 0; i < 26; i++) {
      machine
          .append(T0 + i + 1)
          .append(',')
          .append(busy)
          .append(',')
          .append(steal)
          .append(',')
          .append(total)
          .append('\n');
    }
    Files.writeString(dir.resolve(RunFiles.MACHINE_CPU), machine);
  }

  /**
   * In a container limited to 2 of a host's 16 CPUs, /proc/stat counts the host's: no share of
   * these vCPUs is read from it, and no other work is claimed.
   */
  @Test
  void aHostsCpuCountIsNotReadAsThisMachines() throws IOException {
    machine(12.0, 0, 16);
    List<String> verdicts = diagnosis();
    assertEquals(1, verdicts.size(), verdicts.toString());
    assertTrue(verdicts.get(0).startsWith("No bottleneck signal"), verdicts.toString());
    RoundReport.write(dir);
    assertTrue(
        new ObjectMapper()
            .readTree(dir.resolve(RunFiles.SUMMARY).toFile())
            .get("other_processes_share")
            .isNull());
  }

  @Test
  void aMachineWithCpuToSpareSaysHowBusyItWas() throws IOException {
    List<String> verdicts = diagnosis();
    assertEquals(
        List.of(
            "No bottleneck signal | consumer CPU below 90%, the machine 75% busy (consumer 50%,"
                + " Pub/Sub emulator 25%), no quota throttling, connections below the limit"),
        verdicts);
  }

  /**
   * A rate that saws by itself is not the quota: the emulator counts what its quota slowed, and its
   * counters decide (the default local round's noise was called "throttled" before).
   */
  @Test
  void theQuotaVerdictFollowsTheEmulatorsCountersNotTheRatesShape() throws IOException {
    StringBuilder timeline =
        new StringBuilder(
            "start_timestamp,project_id,project_number,dataset_id,table_id,stream_type,error_code,total_requests,total_rows,total_input_bytes\n");
    for (int i = 0; i < 26; i++) {
      long rows =
          i % 2 == 0
              ? 11_000
              : 4_000; // 6.6 and 2.4 MB/s: above a 6 MB/s quota, then below half of it
      String ts =
          DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss")
              .withZone(ZoneOffset.UTC)
              .format(Instant.ofEpochSecond(T0 + i));
      timeline
          .append(ts)
          .append(",p,,d,rides,BUFFERED,OK,10,")
          .append(rows)
          .append(',')
          .append(rows * 600)
          .append('\n');
    }
    Files.writeString(dir.resolve(RunFiles.TIMELINE_PER_SECOND), timeline);
    ObjectMapper json = new ObjectMapper();
    Map<String, Object> emulator =
        new HashMap<>(
            Map.of(
                "quota_mb_per_second",
                6.0,
                "quota_window_seconds",
                10.0,
                "max_connections",
                1_000,
                "peak_connections",
                2,
                "throttled_appends",
                0,
                "jobs",
                List.of()));
    json.writeValue(dir.resolve(RunFiles.BIGQUERY_EMULATOR).toFile(), emulator);
    assertTrue(
        diagnosis().stream().noneMatch(v -> v.startsWith("Throttled") || v.startsWith("Reached")),
        diagnosis().toString());

    emulator.put("throttled_appends", 12);
    emulator.put("throttled_seconds", 3.5);
    json.writeValue(dir.resolve(RunFiles.BIGQUERY_EMULATOR).toFile(), emulator);
    String quota =
        diagnosis().stream().filter(v -> v.startsWith("Throttled")).findFirst().orElseThrow();
    assertTrue(
        quota.startsWith(
            "Throttled by the regional throughput quota (sawtooth) | the emulator slowed 12 appends"
                + " by 3.5 s in all and refused 0 (quota 6.00 MB/s per 10 s window); "),
        quota);
  }

  /** The recorded round's consumer_result.json, as fields a test changes. */
  private Map<String, Object> consumerResult() throws IOException {
    @SuppressWarnings("unchecked")
    Map<String, Object> fields =
        new ObjectMapper().readValue(dir.resolve(RunFiles.CONSUMER_RESULT).toFile(), Map.class);
    return new HashMap<>(fields);
  }

  private void writeConsumerResult(Map<String, Object> fields) throws IOException {
    new ObjectMapper().writeValue(dir.resolve(RunFiles.CONSUMER_RESULT).toFile(), fields);
  }
}
