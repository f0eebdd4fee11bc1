package dev.ingestbench.cli.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.cli.IngestbenchCommand;
import dev.ingestbench.cli.IngestbenchProcess;
import dev.ingestbench.contracts.CsvChecksums;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.contracts.StepStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ingestbench run} end to end on this machine: a 2-job, 3-stage scenario killed during its
 * second stage and run again (it resumes, skipping the finished stage), and a 2-configuration
 * unordered scenario run and rerun.
 */
@Tag("e2e")
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class RunCommandTest {
  private static final Path STAGED =
      Path.of("src/test/resources/scenarios/two-jobs-three-stages.yaml");
  private static final Path KILLED = Path.of("src/test/resources/scenarios/one-job-killed.yaml");
  private static final Path UNORDERED =
      Path.of("src/test/resources/scenarios/two-configurations.yaml");

  @Test
  void aKilledStagedRunResumesAtTheUnfinishedStageAndVerifiesEveryJob(
      @TempDir Path out, @TempDir Path logs) throws Exception {
    Process first =
        IngestbenchProcess.start(
            logs.resolve("first-run.log"),
            "run",
            STAGED.toString(),
            "--out",
            out.toString(),
            "--heap",
            "768m");
    Path stage1 = out.resolve("status/01-a-alone.json");
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (!Files.exists(stage1) && first.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(500);
    }
    assertTrue(Files.exists(stage1), "stage 1 finished in the first run");
    Thread.sleep(5_000);
    List<ProcessHandle> children = first.descendants().toList();
    assertFalse(children.isEmpty(), "the run had started its emulators and jobs");
    first.destroy(); // SIGTERM, as Ctrl-C or a CI timeout would
    assertTrue(first.waitFor(60, TimeUnit.SECONDS), "the run stopped");
    for (ProcessHandle child : children) {
      child.onExit().get(30, TimeUnit.SECONDS);
      assertFalse(child.isAlive(), "no process left behind: " + child.info().command().orElse("?"));
    }
    assertEquals(List.of("01-a-alone.json"), markers(out), "only the finished stage is marked");

    String output =
        runInProcess(
            0,
            "run",
            STAGED.toString(),
            "--out",
            out.toString(),
            "--heap",
            "768m",
            "--warm-up-max",
            "45s");
    assertTrue(
        output.contains("Resuming at stage 2/3 a-and-b: stages 1-1 are finished and skipped"),
        output);
    assertTrue(output.contains("waiting until steady (max 45s; not measured)"), output);
    assertEquals(List.of("01-a-alone.json", "02-a-and-b.json", "03-b-alone.json"), markers(out));
    assertEquals(1, status(out, "01-a-alone").segment(), "stage 1 was measured by the first run");
    assertEquals(2, status(out, "02-a-and-b").segment());
    assertEquals(2, status(out, "03-b-alone").segment());
    assertTrue(status(out, "03-b-alone").conditionMet(), "b drained");

    List<ResultRecord> results = results(out);
    assertEquals(
        0, value(results, "b-alone", "b", "lost"), "b read every message of its subscription");
    assertEquals(40_000, value(results, "b-alone", "b", "accounted_for"));
    assertEquals(40_000, value(results, "b-alone", "b", "published"));
    assertEquals(0, value(results, "b-alone", "b", "left"));
    // a was stopped in stage 3: what it had not written was counted in its subscription, not
    // assumed.
    double aAccounted = value(results, "a-and-b", "a", "accounted_for");
    double aLeft = value(results, "a-and-b", "a", "left");
    assertTrue(aLeft > 0, "a stopped before it had read everything");
    assertEquals(40_000, aAccounted + aLeft, "published = accounted for + left");
    assertEquals(0, value(results, "a-and-b", "a", "lost"));
    assertTrue(output.contains("Verified: every job of every stage"), output);
    assertEquals(0, value(results, "b-alone", "b", "duplicates"), "exactly-once: no duplicates");
    assertTrue(value(results, "a-and-b", "a", "rows_written") > 0, "a wrote in stage 2");
    assertTrue(value(results, "b-alone", "b", "rows_per_second") > 0, "b wrote in stage 3");
    assertTrue(
        results.stream().anyMatch(r -> r.stage().equals("a-alone")),
        "stage 1's results survived the kill");
    assertEquals(
        1,
        results.stream().map(ResultRecord::runId).distinct().count(),
        "one run id across the resume");
    ResultRecord sample = results.get(0);
    // a was stopped mid-stream under exactly-once: drained, it lost nothing and wrote nothing
    // twice.
    assertEquals(
        "exactly-once",
        results.stream()
            .filter(r -> r.job().equals("a"))
            .findFirst()
            .orElseThrow()
            .labels()
            .get("write_method"));
    assertEquals(0, value(results, "a-and-b", "a", "duplicates"));
    assertEquals("local", sample.target());
    // b wrote in-process: sampled while it ran (its rows per second above), counted from the files
    // its consumer left, and labelled so.
    assertEquals("in-process", label(results, "b", "sink"));
    assertEquals("emulator", label(results, "a", "sink"));
    assertTrue(Files.exists(out.resolve("segment-2/b/bigquery_emulator.json")));

    String report = Files.readString(out.resolve("report.md"));
    assertTrue(report.contains("| a-and-b | a |") && report.contains("| b-alone | b |"), report);
    assertTrue(report.contains("| b | b-alone | 40,000 | 40,000 | 0 | 0 | 0 | 0 |"), report);
    assertTrue(report.contains("The run was resumed"), report);
    assertTrue(Files.exists(out.resolve("throughput.svg")));
  }

  @Test
  void aStageThatKillsItsJobsConsumerRestoresItAndItsVerificationSpansBothLives(@TempDir Path out)
      throws Exception {
    Ran ran = runInProcess("run", KILLED.toString(), "--out", out.toString(), "--heap", "768m");
    String output = ran.output();
    Matcher killed =
        Pattern.compile(
                "\\[run\\] Killed job a's consumer \\(SIGKILL\\) at \\d+ s; starting it again from"
                    + " its checkpoint chk-\\d+")
            .matcher(output);
    assertTrue(killed.find(), output);
    assertFalse(killed.find(), "killed once: " + output);
    assertTrue(
        output.contains(
            "Stage killed: consumers killed (SIGKILL) and restored from a checkpoint 1 time(s) in"
                + " all"),
        output);
    assertTrue(
        Files.readString(out.resolve("report.md"))
            .contains("until drained (max 5m); consumers killed: kill_consumer_at 10s"),
        "the report's stage says it killed");
    List<ResultRecord> results = results(out);
    assertEquals(30_000, value(results, "killed", "a", "published"));
    assertEquals(30_000, value(results, "killed", "a", "accounted_for"), output);
    assertEquals(0, value(results, "killed", "a", "lost"), "nothing lost across the restore");
    // Rows the killed life had flushed past its checkpoint are written again by the restore on
    // Flink (docs/bigquery-emulator.md, "Exactly-once is not exact across a Flink restore"): the
    // run must then fail naming them, and pass when there are none.
    double duplicates = value(results, "killed", "a", "duplicates");
    assertEquals(duplicates == 0 ? ExitCodes.OK : ExitCodes.INCOMPLETE, ran.exit(), output);
    assertEquals(
        duplicates == 0,
        output.contains("Verified: every job of every stage"),
        "verified exactly when nothing was written twice: " + output);
    assertEquals(
        duplicates > 0,
        output.contains(
            String.format(
                java.util.Locale.ROOT,
                "job a: exactly-once wrote %,d duplicate row(s)",
                (long) duplicates)),
        output);
    Path segment = out.resolve("segment-1");
    assertTrue(
        Files.size(segment.resolve("a.1.log")) > 0, "the killed life's log is kept as a.1.log");
    assertTrue(Files.exists(segment.resolve("a.log")), "the restored life's log");
    assertTrue(
        Files.readString(segment.resolve("processes_cpu.csv")).contains(",a-life-2,"),
        "the restored life's CPU is recorded apart");
  }

  @Test
  void anUnorderedRunRunsEachConfigurationAsARoundAndARerunSkipsThem(@TempDir Path out)
      throws Exception {
    runInProcess(0, "run", UNORDERED.toString(), "--out", out.toString(), "--heap", "768m");
    assertEquals(List.of("at-least-once-i1.json", "exactly-once-i1.json"), markers(out));
    List<ResultRecord> results = results(out);
    for (String config : List.of("exactly-once", "at-least-once")) {
      assertEquals(0, value(results, config, config, "lost"), config);
      assertEquals(10_000, value(results, config, config, "rows_written"), config);
      assertTrue(
          Files.exists(out.resolve("iterations").resolve(config + "-i1").resolve("report.md")));
    }
    assertTrue(Files.readString(out.resolve("report.md")).contains("## Configurations"));

    String again = runInProcess(0, "run", UNORDERED.toString(), "--out", out.toString());
    assertTrue(again.contains("Every iteration is finished already"), again);
    assertEquals(2, markers(out).size());
  }

  @Test
  void aRerunWithAnotherScaleIsRefusedWithTheFix(@TempDir Path out) throws Exception {
    runInProcess(0, "run", UNORDERED.toString(), "--out", out.toString(), "--dry-run");
    writeRun(out, 0.5, "not-this-file");
    String err = runInProcess(2, "run", UNORDERED.toString(), "--out", out.toString());
    assertTrue(
        err.contains("holds a run of a different scenario file") && err.contains("--restart"), err);
    writeRun(out, 0.5, CsvChecksums.sha256(UNORDERED));
    err = runInProcess(2, "run", UNORDERED.toString(), "--out", out.toString());
    assertTrue(err.contains("holds a run of --scale 0.5") && err.contains("--restart"), err);
  }

  /** A run whose results were labelled with one runner is not resumed on another, either way. */
  @Test
  void aResumeOnAnotherRunnerIsRefusedWithTheFix(
      @TempDir Path flink, @TempDir Path direct, @TempDir Path unlabelled) throws Exception {
    String err = resumeOf(flink, "FlinkRunner", "--runner", "DirectRunner");
    assertTrue(
        err.contains("holds a run of --runner FlinkRunner") && err.contains("--restart"), err);
    err = resumeOf(direct, "DirectRunner");
    assertTrue(
        err.contains("holds a run of --runner DirectRunner") && err.contains("--restart"), err);
    // Results labelled before the runner was ran on embedded Flink.
    err = resumeOf(unlabelled, null, "--runner", "DirectRunner");
    assertTrue(
        err.contains("holds a run of --runner FlinkRunner") && err.contains("--restart"), err);
  }

  /**
   * --runner FlinkRunner with --target flink names the runner the cluster runs anyway: taken, and
   * the jobs are submitted to the cluster; another runner is refused naming the fix.
   */
  @Test
  void aFlinkTargetTakesTheFlinkRunnerAndRefusesAnother(@TempDir Path out) {
    String[] onCluster = {
      "run",
      STAGED.toString(),
      "--out",
      out.toString(),
      "--target",
      "flink",
      "--parallelism",
      "1",
      "--dry-run",
      "--runner"
    };
    String dry = runInProcess(0, with(onCluster, "FlinkRunner"));
    assertTrue(dry.contains("--flinkMaster=FLINK_MASTER"), dry);
    String err = runInProcess(2, with(onCluster, "DirectRunner"));
    assertTrue(err.contains("submits every job to its Flink cluster: drop --runner"), err);
  }

  /** {@code args} and {@code last} after them. */
  private static String[] with(String[] args, String last) {
    String[] all = java.util.Arrays.copyOf(args, args.length + 1);
    all[args.length] = last;
    return all;
  }

  /**
   * Resumes, with {@code flags}, a run of the unordered scenario in {@code out} whose one result is
   * labelled with {@code runner} (null: no runner label); what it printed (it must refuse: exit 2).
   */
  private static String resumeOf(Path out, String runner, String... flags) throws Exception {
    writeRun(out, 1, CsvChecksums.sha256(UNORDERED));
    Files.writeString(
        out.resolve("results.jsonl"),
        RunJson.toJsonLine(
                new ResultRecord(
                    "x",
                    "two-configurations",
                    "local",
                    1,
                    "exactly-once",
                    "exactly-once",
                    "rows_written",
                    10,
                    "rows",
                    runner == null ? java.util.Map.of() : java.util.Map.of("runner", runner),
                    "2026-01-01T00:01:00Z"))
            + "\n");
    List<String> args =
        new ArrayList<>(List.of("run", UNORDERED.toString(), "--out", out.toString()));
    args.addAll(List.of(flags));
    return runInProcess(2, args.toArray(new String[0]));
  }

  /**
   * The run.json of an earlier run of the unordered scenario at {@code scale}, file hash {@code
   * sha}.
   */
  private static void writeRun(Path out, double scale, String sha) throws IOException {
    Files.createDirectories(out);
    RunJson.write(
        out.resolve("run.json"),
        new ScenarioRun(
            "x", "two-configurations", "local", scale, sha, "2026-01-01T00:00:00Z", "m", 2, null));
  }

  private static String runInProcess(int expectedExit, String... args) {
    Ran ran = runInProcess(args);
    assertEquals(expectedExit, ran.exit(), ran.output());
    return ran.output();
  }

  /** What a run in this JVM printed, and its exit code. */
  private record Ran(int exit, String output) {}

  private static Ran runInProcess(String... args) {
    PrintStream stdout = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    StringWriter err = new StringWriter();
    int exit;
    try (PrintStream tee =
        new PrintStream(new TeeStream(captured, stdout), true, StandardCharsets.UTF_8)) {
      System.setOut(tee);
      exit = IngestbenchCommand.commandLine().setErr(new PrintWriter(err, true)).execute(args);
    } finally {
      System.setOut(stdout);
    }
    return new Ran(exit, captured.toString(StandardCharsets.UTF_8) + err);
  }

  private static List<String> markers(Path out) throws Exception {
    try (var files = Files.list(out.resolve("status"))) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".json"))
          .sorted()
          .toList();
    }
  }

  private static StepStatus status(Path out, String step) throws Exception {
    return RunJson.read(out.resolve("status").resolve(step + ".json"), StepStatus.class);
  }

  private static List<ResultRecord> results(Path out) throws Exception {
    List<ResultRecord> records = new ArrayList<>();
    for (String line : Files.readAllLines(out.resolve("results.jsonl"))) {
      records.add(RunJson.fromJson(line, ResultRecord.class));
    }
    return records;
  }

  private static double value(List<ResultRecord> results, String stage, String job, String metric) {
    return results.stream()
        .filter(r -> r.stage().equals(stage) && r.job().equals(job) && r.metric().equals(metric))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + metric + " of " + job + " in " + stage))
        .value();
  }

  private static String label(List<ResultRecord> results, String job, String key) {
    return results.stream()
        .filter(r -> r.job().equals(job))
        .findFirst()
        .orElseThrow()
        .labels()
        .get(key);
  }

  /** Shows the run's output while capturing it. */
  private static final class TeeStream extends OutputStream {
    private final OutputStream a;
    private final OutputStream b;

    TeeStream(OutputStream a, OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public void write(int c) throws IOException {
      a.write(c);
      b.write(c);
    }

    @Override
    public void write(byte[] buf, int off, int len) throws IOException {
      a.write(buf, off, len);
      b.write(buf, off, len);
    }
  }
}
