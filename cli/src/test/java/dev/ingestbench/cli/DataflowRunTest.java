package dev.ingestbench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.cloud.pubsub.v1.SubscriptionAdminClient;
import com.google.cloud.pubsub.v1.SubscriptionAdminSettings;
import dev.ingestbench.contracts.DataflowJobRecord;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.ScenarioRunFiles;
import dev.ingestbench.emulator.PubsubEmulator;
import dev.ingestbench.pubsub.PubsubChannels;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ingestbench run --target dataflow} end to end without Google Cloud: the real Dataflow,
 * BigQuery, Monitoring and Pub/Sub clients against loopback stand-ins of the Dataflow and BigQuery
 * REST APIs and Monitoring's gRPC API, and the real Pub/Sub emulator. The stand-ins record every
 * request; the test asserts the launches (templates, parameters, workers), their order and timing,
 * the stops, the resources created, and the figures computed from the job counters.
 */
@Tag("e2e")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class DataflowRunTest {
  private static final Path SCENARIO =
      Path.of("src", "test", "resources", "scenarios", "dataflow-three-stages.yaml");
  private static final String PROJECT = "ingestbench-test";
  private static final String REGION = "asia-southeast1";

  private PubsubEmulator pubsub;
  private DataflowStandIn dataflow;
  private BigQueryStandIn bigquery;
  private MonitoringStandIn monitoring;

  @BeforeEach
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void startStandIns() throws Exception {
    pubsub = PubsubEmulator.start();
    dataflow = new DataflowStandIn(PROJECT, REGION);
    bigquery = new BigQueryStandIn();
    monitoring = new MonitoringStandIn();
  }

  @AfterEach
  void stopStandIns() {
    monitoring.close();
    bigquery.close();
    dataflow.close();
    pubsub.close();
  }

  private String[] args(Path out, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "run",
                SCENARIO.toString(),
                "--target",
                "dataflow",
                "--out",
                out.toString(),
                "--project",
                PROJECT,
                "--region",
                REGION,
                "--bucket",
                "test-bucket",
                "--poll-interval",
                "1s",
                "--dataflow-endpoint",
                dataflow.url(),
                "--bigquery-endpoint",
                bigquery.url(),
                "--monitoring-endpoint",
                monitoring.url(),
                "--pubsub-emulator-host",
                pubsub.hostAndPort()));
    args.addAll(List.of(more));
    return args.toArray(String[]::new);
  }

  @Test
  void launchesEachStagesJobsFromTheTemplatesStopsThemInOrderAndMeasuresTheirCounters(
      @TempDir Path out) throws Exception {
    // Every stage ran; the counters do not verify messages one by one, so the run says so and exits
    // 3.
    String output = run(ExitCodes.FAILED, args(out));
    assertTrue(
        output.contains(
            "Not verified: stage a-and-b, job a: on Dataflow the rows are counted by the job's"
                + " counters"),
        output);

    List<DataflowStandIn.Job> jobs = dataflow.launched();
    assertEquals(3, jobs.size(), output);
    JsonNode backlog = jobs.get(0).launch;
    JsonNode a = jobs.get(1).launch;
    JsonNode b = jobs.get(2).launch;
    assertEquals(
        "gs://test-bucket/templates/ingestbench-publisher.json",
        backlog.path("containerSpecGcsPath").asText());
    assertEquals(
        "projects/ingestbench-test/topics/taxi-rides",
        backlog.path("parameters").path("topic").asText());
    assertEquals("1000000", backlog.path("parameters").path("numMessages").asText());
    assertEquals("0", backlog.path("parameters").path("firstEventIndex").asText());
    assertEquals(
        "gs://test-bucket/templates/ingestbench-consumer.json",
        a.path("containerSpecGcsPath").asText());
    assertTrue(
        a.path("jobName").asText().matches("dataflow-three-stages-\\d{8}-\\d{6}-s1-a"),
        a.toString());
    JsonNode ap = a.path("parameters");
    assertEquals(
        "projects/ingestbench-test/subscriptions/taxi-rides-a", ap.path("subscription").asText());
    assertEquals("ingestbench-test:ingestbench.taxi_rides", ap.path("outputTable").asText());
    assertEquals("exactly-once", ap.path("writeMethod").asText());
    assertEquals("5", ap.path("storageWriteApiTriggeringFrequencySec").asText());
    JsonNode env = a.path("environment");
    assertEquals(3, env.path("numWorkers").asInt());
    assertEquals(3, env.path("maxWorkers").asInt());
    assertEquals("n2-highcpu-8", env.path("machineType").asText());
    assertTrue(env.path("enableStreamingEngine").asBoolean());
    assertEquals("gs://test-bucket/tmp", env.path("tempLocation").asText());
    JsonNode bp = b.path("parameters");
    assertEquals(
        "projects/ingestbench-test/subscriptions/taxi-rides-b", bp.path("subscription").asText());
    assertEquals("at-least-once", bp.path("writeMethod").asText());
    assertEquals("true", bp.path("useStorageApiConnectionPool").asText());
    assertEquals("2", bp.path("destinationTables").asText());

    // Order and timing: a after the backlog is done, b a stage (5 s) after a, a stopped a stage
    // after b,
    // b stopped last, each by a cancel request.
    List<DataflowStandIn.Request> requests = dataflow.requests();
    long backlogDone = firstStateRead(requests, jobs.get(0).id, 3);
    long aLaunched = launchAt(requests, 1);
    long bLaunched = launchAt(requests, 2);
    long aStopped = stopAt(requests, jobs.get(1).id);
    long bStopped = stopAt(requests, jobs.get(2).id);
    assertTrue(backlogDone < aLaunched, "a launched after the backlog job was done");
    assertTrue(
        bLaunched - aLaunched >= 5_000,
        "stage a-alone held 5 s: " + (bLaunched - aLaunched) + " ms");
    assertTrue(
        aStopped - bLaunched >= 5_000, "stage a-and-b held 5 s: " + (aStopped - bLaunched) + " ms");
    assertTrue(
        bStopped - aStopped >= 4_000, "stage b-alone held 4 s: " + (bStopped - aStopped) + " ms");
    for (DataflowStandIn.Request r : requests) {
      if (r.method().equals("PUT")) {
        assertEquals("JOB_STATE_CANCELLED", r.body().path("requestedState").asText(), r.toString());
      }
    }
    assertEquals(
        2,
        requests.stream().filter(r -> r.method().equals("PUT")).count(),
        "one stop per consumer job");

    // What was created: subscriptions on the Pub/Sub emulator, dataset and tables in BigQuery.
    try (PubsubChannels channels = PubsubChannels.forEmulatorHost(pubsub.hostAndPort());
        SubscriptionAdminClient subscriptions =
            SubscriptionAdminClient.create(
                SubscriptionAdminSettings.newBuilder()
                    .setTransportChannelProvider(channels.channelProvider())
                    .setCredentialsProvider(channels.credentialsProvider())
                    .build())) {
      assertEquals(
          "projects/ingestbench-test/topics/taxi-rides",
          subscriptions
              .getSubscription("projects/ingestbench-test/subscriptions/taxi-rides-b")
              .getTopic());
    }
    String base = "/projects/ingestbench-test/datasets/ingestbench";
    assertEquals(
        List.of(
            base,
            base + "/tables/taxi_rides",
            base + "/tables/taxi_rides_0",
            base + "/tables/taxi_rides_1",
            base + "/tables/taxi_rides_dlq"),
        new ArrayList<>(bigquery.created));

    // Figures from the counters: a writes 10,000 rows/s, b 5,000.
    List<ResultRecord> results = ScenarioRunFiles.results(out);
    assertTrue(
        results.stream().noneMatch(r -> r.metric().equals("misrouted_rows")),
        "BigQuery checks no row's table: no count, rather than a 0 that reads as checked");
    assertNear(10_000, value(results, "a-alone", "a", "rows_per_second"));
    assertNear(5_000, value(results, "a-and-b", "b", "rows_per_second"));
    assertNear(15_000, value(results, "a-and-b", ResultRecord.ALL_JOBS, "rows_per_second"));
    assertNear(5_000, value(results, "b-alone", "b", "rows_per_second"));
    assertNear(10_000 * 500 / 1e6, value(results, "a-alone", "a", "mb_per_second"));
    assertNear(10_000 / 12.0, value(results, "a-alone", "a", "rows_per_cpu_second"));
    assertEquals(
        7, value(results, "b-alone", ResultRecord.ALL_JOBS, "monitoring_peak_connections"));
    assertTrue(
        Files.readString(out.resolve("write_api_timeline.csv"))
            .contains(",taxi_rides,DEFAULT,,60,60000,30000000"));
    assertTrue(
        monitoring.requests.stream().anyMatch(r -> r.getFilter().contains(jobs.get(1).name)),
        "vCPUs of job a read");
    assertTrue(bigquery.queries.get(0).toString().contains("WRITE_API_TIMELINE"));

    List<DataflowJobRecord> log = jobLog(out);
    assertEquals(List.of("backlog", "a", "b"), log.stream().map(DataflowJobRecord::role).toList());
    assertTrue(log.stream().allMatch(j -> j.stoppedAt() != null), log.toString());
    String report = Files.readString(out.resolve("report.md"));
    assertTrue(report.contains("a-and-b") && report.contains("Google Cloud"), report);
  }

  @Test
  void aJobThatFailsNamesItsStageCancelsTheOthersAndARerunResumes(@TempDir Path out)
      throws Exception {
    dataflow.failOnStart = "b";
    String failed = run(ExitCodes.FAILED, args(out));
    assertTrue(
        failed.contains("stage a-and-b: job b") && failed.contains("JOB_STATE_FAILED"), failed);
    assertTrue(failed.contains("console.cloud.google.com/dataflow/jobs/asia-southeast1/"), failed);
    String aFirst = dataflow.launched().get(1).id;
    assertTrue(
        dataflow.requests().stream()
            .anyMatch(r -> r.method().equals("PUT") && r.path().endsWith(aFirst)),
        "job a cancelled after b failed");
    assertEquals(List.of("01-a-alone.json"), markers(out));

    dataflow.failOnStart = "";
    String resumed =
        run(ExitCodes.FAILED, args(out, "--stop-with", "drain", "--warm-up-max", "3s"));
    assertTrue(
        !resumed.contains("Verification failed"), "nothing failed: the jobs are only not verified");
    assertTrue(
        resumed.contains("Resuming at stage 2/3 a-and-b") && resumed.contains("published by"),
        resumed);
    assertEquals(List.of("01-a-alone.json", "02-a-and-b.json", "03-b-alone.json"), markers(out));
    List<String> roles = jobLog(out).stream().map(DataflowJobRecord::role).toList();
    assertEquals(
        List.of("backlog", "a", "b", "a", "b"), roles, "the backlog is not published again");
    assertTrue(jobLog(out).stream().allMatch(j -> j.stoppedAt() != null));
    assertTrue(
        dataflow.requests().stream()
            .anyMatch(
                r ->
                    r.method().equals("PUT")
                        && r.body().path("requestedState").asText().equals("JOB_STATE_DRAINED")),
        "--stop-with drain drains");
    assertTrue(
        jobLog(out).stream().anyMatch(j -> "JOB_STATE_DRAINED".equals(j.finalState())),
        jobLog(out).toString());
  }

  @Test
  void aJobThatFailsWhileItRunsIsNoticedEvenWhenItIsNotTheFirstOfItsStage(@TempDir Path out)
      throws Exception {
    dataflow.failWhileRunning = "b"; // a-and-b runs [a, b]: b's state must be read too
    String failed = run(ExitCodes.FAILED, args(out));
    assertTrue(
        failed.contains("stage a-and-b: job b (") && failed.contains(") is JOB_STATE_FAILED"),
        failed);
    assertEquals(
        List.of("01-a-alone.json"), markers(out), "the stage in which b failed is not marked");
  }

  @Test
  void ctrlCCancelsEveryJobTheRunLaunched(@TempDir Path out, @TempDir Path logs) throws Exception {
    Process run = IngestbenchProcess.start(logs.resolve("run.log"), args(out));
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (dataflow.launched().size() < 2 && run.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    assertEquals(2, dataflow.launched().size(), "the backlog publisher and job a were launched");
    String a = dataflow.launched().get(1).id;
    run.destroy(); // SIGTERM, as Ctrl-C does
    assertTrue(run.waitFor(30, TimeUnit.SECONDS), "the run stopped");
    assertTrue(
        dataflow.requests().stream()
            .anyMatch(
                r ->
                    r.method().equals("PUT")
                        && r.path().endsWith("/jobs/" + a)
                        && r.body().path("requestedState").asText().equals("JOB_STATE_CANCELLED")),
        "job a was cancelled on the way out");
    assertTrue(jobLog(out).stream().allMatch(j -> j.stoppedAt() != null), "the job log says so");
  }

  private static long launchAt(List<DataflowStandIn.Request> requests, int n) {
    return requests.stream()
        .filter(r -> r.path().endsWith("flexTemplates:launch"))
        .skip(n)
        .findFirst()
        .orElseThrow()
        .atMillis();
  }

  private static long stopAt(List<DataflowStandIn.Request> requests, String id) {
    return requests.stream()
        .filter(r -> r.method().equals("PUT") && r.path().endsWith("/jobs/" + id))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no stop request for " + id))
        .atMillis();
  }

  private static long firstStateRead(List<DataflowStandIn.Request> requests, String id, int n) {
    return requests.stream()
        .filter(r -> r.method().equals("GET") && r.path().endsWith("/jobs/" + id))
        .skip(n - 1)
        .findFirst()
        .orElseThrow()
        .atMillis();
  }

  private static double value(List<ResultRecord> results, String stage, String job, String metric) {
    return results.stream()
        .filter(r -> r.stage().equals(stage) && r.job().equals(job) && r.metric().equals(metric))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + metric + " for " + job + " in " + stage))
        .value();
  }

  private static void assertNear(double expected, double actual) {
    assertTrue(
        Math.abs(actual - expected) <= 0.15 * expected,
        "expected about " + expected + ", got " + actual);
  }

  private static List<DataflowJobRecord> jobLog(Path out) throws Exception {
    List<DataflowJobRecord> jobs = new ArrayList<>();
    for (String line : Files.readAllLines(out.resolve("dataflow_jobs.jsonl"))) {
      jobs.add(RunJson.fromJson(line, DataflowJobRecord.class));
    }
    return jobs;
  }

  private static List<String> markers(Path out) throws Exception {
    try (Stream<Path> files = Files.list(out.resolve("status"))) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".json"))
          .sorted()
          .toList();
    }
  }

  private static String run(int expectedExit, String... args) {
    PrintStream stdout = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    StringWriter err = new StringWriter();
    int exit;
    try (PrintStream both = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
      System.setOut(both);
      exit = IngestbenchCommand.commandLine().setErr(new PrintWriter(err, true)).execute(args);
    } finally {
      System.setOut(stdout);
    }
    String all = captured.toString(StandardCharsets.UTF_8) + err;
    System.out.print(all);
    assertEquals(expectedExit, exit, all);
    return all;
  }
}
