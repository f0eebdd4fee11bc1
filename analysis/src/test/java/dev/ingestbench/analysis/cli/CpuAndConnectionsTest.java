package dev.ingestbench.analysis.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * analyze with CPU and connection series, as users export them: Cloud Monitoring's utilisation per
 * job (in %), Dataflow's vCPU-seconds per job, a connections series with one line per location.
 */
class CpuAndConnectionsTest {
  private static final Instant T0 = Instant.parse("2026-02-12T10:00:00Z");

  /**
   * A alone, A and B, B alone: 8 minutes each at 100k / 200k / 100k rows/s of 500 bytes, 3% noise.
   */
  private static Path timeline(Path dir) throws Exception {
    Random random = new Random(5);
    StringBuilder csv =
        new StringBuilder("start_timestamp,table_id,total_rows,total_input_bytes\n");
    for (int i = 0; i < 24; i++) {
      long rows = Math.round((i >= 8 && i < 16 ? 12e6 : 6e6) * (1 + 0.03 * random.nextGaussian()));
      csv.append(
          String.format(
              Locale.ROOT,
              "%s,taxi_rides,%d,%d%n",
              T0.plusSeconds(60L * i).toString().replace('T', ' ').replace("Z", ""),
              rows,
              rows * 500));
    }
    return Files.writeString(dir.resolve("timeline.csv"), csv);
  }

  private static Path perMinute(Path dir, String name, String column, double value)
      throws Exception {
    StringBuilder csv = new StringBuilder("minute," + column + "\n");
    for (int i = 0; i < 24; i++) {
      csv.append(T0.plusSeconds(60L * i)).append(',').append(value).append('\n');
    }
    return Files.writeString(dir.resolve(name), csv);
  }

  private static List<String> kinds(Path out) throws Exception {
    List<String> kinds = new ArrayList<>();
    new ObjectMapper()
        .readTree(out.resolve("report.json").toFile())
        .get("verdicts")
        .forEach(v -> kinds.add(v.get("kind").asText()));
    return kinds;
  }

  private static int analyze(String... args) {
    return AnalyzeCommand.commandLine().execute(args);
  }

  @Test
  void utilisationInPercentPerJobAtNinetyFiveIsCpuBound(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("out");
    assertEquals(
        0,
        analyze(
            "--timeline",
            timeline(dir).toString(),
            "--cpu",
            perMinute(dir, "a.csv", "utilization", 95).toString(),
            "--cpu",
            perMinute(dir, "b.csv", "utilization", 95).toString(),
            "--vcpus",
            "24",
            "--out",
            out.toString()));
    // Both files say both jobs were busy every minute: two writers throughout, no change to judge;
    // each job is judged against its own 24 vCPUs, and named.
    assertEquals(Collections.nCopies(6, "cpu-bound"), kinds(out));
    JsonNode first =
        new ObjectMapper().readTree(out.resolve("report.json").toFile()).get("verdicts").get(0);
    assertTrue(first.get("verdict").asText().endsWith(": job a"), first.toString());
    assertTrue(
        first.get("evidence").asText().startsWith("job a used 95.0% of its 24 vCPUs"),
        first.toString());
    JsonNode level =
        new ObjectMapper().readTree(out.resolve("report.json").toFile()).get("phases").get(0);
    assertEquals(
        0.95,
        level.get("cpu_utilisation").asDouble(),
        1e-9,
        "95% of 24 vCPUs, averaged over the jobs' files");
  }

  @Test
  void vcpuSecondsPerJobWithHeadroomAndNoBigQueryLimitIsUpstreamBound(@TempDir Path dir)
      throws Exception {
    Path out = dir.resolve("out");
    // two jobs of 24 vCPUs each: 300 vCPU-seconds a minute is 21% of each
    assertEquals(
        0,
        analyze(
            "--timeline",
            timeline(dir).toString(),
            "--cpu",
            perMinute(dir, "a.csv", "vcpu_seconds", 300).toString(),
            "--cpu",
            perMinute(dir, "b.csv", "vcpu_seconds", 300).toString(),
            "--vcpus",
            "24",
            "--out",
            out.toString()));
    assertEquals(List.of("upstream-bound", "upstream-bound", "upstream-bound"), kinds(out));
  }

  /** One file per job, each busy only while its job ran: the writers per level come from them. */
  @Test
  void perJobCpuFilesSayWhoWroteWhenAndTheScalingIsJudgedOnThem(@TempDir Path dir)
      throws Exception {
    Path out = dir.resolve("out");
    StringBuilder a = new StringBuilder("minute,vcpu_seconds\n");
    StringBuilder b = new StringBuilder("minute,vcpu_seconds\n");
    for (int i = 0; i < 24; i++) {
      a.append(T0.plusSeconds(60L * i)).append(',').append(i < 16 ? 300 : 2).append('\n');
      b.append(T0.plusSeconds(60L * i)).append(',').append(i >= 8 ? 300 : 2).append('\n');
    }
    assertEquals(
        0,
        analyze(
            "--timeline",
            timeline(dir).toString(),
            "--cpu",
            Files.writeString(dir.resolve("job-a.csv"), a).toString(),
            "--cpu",
            Files.writeString(dir.resolve("job-b.csv"), b).toString(),
            "--vcpus",
            "24",
            "--out",
            out.toString()));
    List<String> kinds = kinds(out);
    assertEquals(
        List.of("linear-scaling", "linear-scaling"), kinds.subList(0, 2), kinds.toString());
    JsonNode report = new ObjectMapper().readTree(out.resolve("report.json").toFile());
    List<Integer> writers = new ArrayList<>();
    report.get("phases").forEach(p -> writers.add(p.get("writers").asInt()));
    assertEquals(List.of(1, 2, 1), writers);
    assertEquals(
        "per-job CPU: jobs using CPU", report.get("phases").get(1).get("writers_from").asText());
    assertTrue(
        report
            .get("verdicts")
            .get(0)
            .get("evidence")
            .asText()
            .contains("1 writer (per-job CPU: jobs using CPU)"),
        report.get("verdicts").get(0).toString());
  }

  /**
   * A published two-job round as a user has it: the write timeline, one vCPU-seconds file per job,
   * each job on 24 vCPUs at ~80%. Read as one job of 24 vCPUs it was "148% CPU-bound"; each job
   * judged against its own is 80%, below the CPU-bound line, and no figure exceeds 100%.
   */
  @Test
  void twoJobsOfTwentyFourVcpusEachAreJudgedEachAgainstItsOwn(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("out");
    assertEquals(
        0,
        analyze(
            "--timeline",
            timeline(dir).toString(),
            "--cpu",
            perMinute(dir, "job-a.csv", "vcpu_seconds", 1_152).toString(),
            "--cpu",
            perMinute(dir, "job-b.csv", "vcpu_seconds", 1_175).toString(),
            "--vcpus",
            "24",
            "--out",
            out.toString()));
    JsonNode report = new ObjectMapper().readTree(out.resolve("report.json").toFile());
    report
        .get("phases")
        .forEach(
            p -> {
              double u = p.get("cpu_utilisation").asDouble();
              assertTrue(u > 0.79 && u < 0.82, "all jobs' CPU over all jobs' vCPUs: " + u);
            });
    assertTrue(!kinds(out).contains("cpu-bound"), kinds(out).toString());
    String md = Files.readString(out.resolve("report.md"));
    md.lines()
        .filter(l -> l.contains("CPU"))
        .forEach(l -> assertTrue(!l.matches(".*\\b[1-9][0-9]{2}(\\.[0-9])?%.*"), l));
  }

  @Test
  void aCpuSeriesThatCannotFitItsVcpusIsRefusedNamingTheFileAndMinute(@TempDir Path dir)
      throws Exception {
    StringWriter err = new StringWriter();
    CommandLine cli = AnalyzeCommand.commandLine();
    cli.setErr(new PrintWriter(err));
    int exit =
        cli.execute(
            "--timeline",
            timeline(dir).toString(),
            "--cpu",
            perMinute(dir, "job-a.csv", "vcpu_seconds", 2_304).toString(),
            "--vcpus",
            "24",
            "--out",
            dir.resolve("out").toString());
    assertEquals(2, exit, err.toString());
    assertTrue(
        err.toString()
            .contains(
                "job-a.csv, minute 2026-02-12T10:00:00Z: 2,304.0 vCPU-seconds is more than 24 vCPUs"
                    + " can use in a minute (1,440)"),
        err.toString());
    assertTrue(err.toString().contains("repeat it, one per --cpu file"), err.toString());
    assertEquals(
        2,
        AnalyzeCommand.commandLine()
            .execute(
                "--timeline",
                timeline(dir).toString(),
                "--cpu",
                perMinute(dir, "a.csv", "vcpu_seconds", 100).toString(),
                "--vcpus",
                "24",
                "--vcpus",
                "12",
                "--out",
                dir.resolve("out2").toString()),
        "two --vcpus for one --cpu file");
  }

  @Test
  void aConnectionsSeriesIsSummedPerMinuteAndCheckedAgainstTheLimitAndTheEstimate(@TempDir Path dir)
      throws Exception {
    Path out = dir.resolve("out");
    StringBuilder csv = new StringBuilder("timestamp,value\n");
    for (int i = 0; i < 24; i++) {
      csv.append(T0.plusSeconds(60L * i))
          .append(",450\n")
          .append(T0.plusSeconds(60L * i))
          .append(',')
          .append(i == 10 ? 420 : 300)
          .append('\n');
    }
    Path connections = Files.writeString(dir.resolve("connections.csv"), csv);
    assertEquals(
        0,
        analyze(
            "--timeline",
            timeline(dir).toString(),
            "--connections",
            connections.toString(),
            "--tables",
            "100",
            "--workers",
            "5",
            "--jobs",
            "2",
            "--out",
            out.toString()));
    JsonNode verdict =
        new ObjectMapper().readTree(out.resolve("report.json").toFile()).get("verdicts").get(0);
    assertEquals("connection-limit", verdict.get("kind").asText());
    assertTrue(
        verdict
            .get("evidence")
            .asText()
            .startsWith("870 connections observed (peak); 100 tables × 5 workers × 2 jobs = 1,000"),
        verdict.get("evidence").asText());
  }

  @Test
  void mixedCpuFilesAndAMissingConnectionsFileAreClearErrors(@TempDir Path dir) throws Exception {
    StringWriter err = new StringWriter();
    CommandLine cli = AnalyzeCommand.commandLine();
    cli.setErr(new PrintWriter(err));
    assertEquals(
        2,
        cli.execute(
            "--timeline",
            timeline(dir).toString(),
            "--cpu",
            perMinute(dir, "a.csv", "utilization", 50).toString(),
            "--cpu",
            perMinute(dir, "b.csv", "vcpu_seconds", 300).toString(),
            "--vcpus",
            "24",
            "--out",
            dir.resolve("o").toString()));
    assertTrue(
        err.toString().contains("--cpu files mix vCPU-seconds and utilisation"), err.toString());
    err.getBuffer().setLength(0);
    assertEquals(
        2,
        cli.execute(
            "--timeline",
            timeline(dir).toString(),
            "--connections",
            "nope.csv",
            "--out",
            dir.resolve("o").toString()));
    assertTrue(
        err.toString().contains("--connections nope.csv is neither a number nor a file"),
        err.toString());
  }
}
