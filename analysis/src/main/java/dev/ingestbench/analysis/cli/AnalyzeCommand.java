package dev.ingestbench.analysis.cli;

import dev.ingestbench.analysis.diagnosis.Diagnoser;
import dev.ingestbench.analysis.model.TimelineRow;
import dev.ingestbench.analysis.phases.PhaseSpec;
import dev.ingestbench.analysis.report.Charts;
import dev.ingestbench.analysis.report.RoundReport;
import dev.ingestbench.analysis.report.TimelineAnalysis;
import dev.ingestbench.analysis.report.TimelineReport;
import dev.ingestbench.analysis.source.BigQueryTimelineSource;
import dev.ingestbench.analysis.source.ConnectionsSeries;
import dev.ingestbench.analysis.source.JobCpu;
import dev.ingestbench.analysis.source.MonitoringSource;
import dev.ingestbench.analysis.source.TimelineCsv;
import dev.ingestbench.analysis.source.VcpuSecondsCsv;
import dev.ingestbench.contracts.MainErrors;
import dev.ingestbench.contracts.RunFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code analyze}: a WRITE_API_TIMELINE export, or a local round's directory, into a report. */
@Command(
    name = "analyze",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Turn a write timeline into phases, statistics, comparisons, a diagnosis and a report.",
      "  analyze --timeline write_api_timeline.csv --cpu vcpu_seconds.csv --vcpus 12 \\",
      "          --phase A1=10:56..11:01 --phase A2=11:13..11:22 --out report/",
      "  analyze --bigquery-project P --region asia-southeast1 \\",
      "          --from 2026-02-12T10:00:00Z --to 2026-02-12T12:00:00Z",
      "  analyze --run runs/round-20261121-101500      (rebuild a local round's report)",
      "Timelines are CSV with the view's own columns (bq query --format=csv). Phase times are UTC."
    })
public final class AnalyzeCommand implements Callable<Integer> {
  @ArgGroup(exclusive = true, multiplicity = "1")
  Input input;

  static final class Input {
    @Option(
        names = "--timeline",
        paramLabel = "FILE",
        description =
            "WRITE_API_TIMELINE export (CSV, bq JSON or JSON lines); repeat it to compare runs exported apart.")
    List<Path> timelines;

    @Option(
        names = "--run",
        paramLabel = "DIR",
        description = "Output directory of 'ingestbench round' or a local consume run.")
    Path run;

    @Option(
        names = "--bigquery-project",
        paramLabel = "PROJECT",
        description =
            "Read INFORMATION_SCHEMA.WRITE_API_TIMELINE of PROJECT directly (with --region, --from, --to).")
    String bigqueryProject;
  }

  @Option(
      names = "--region",
      description = "With --bigquery-project: the BigQuery region, e.g. asia-southeast1.")
  String region;

  @Option(names = "--dataset", description = "With --bigquery-project: only this dataset.")
  String dataset;

  @Option(
      names = "--table",
      description = "With --bigquery-project: only these tables (repeatable).")
  List<String> bigqueryTables = new ArrayList<>();

  @Option(
      names = "--from",
      paramLabel = "UTC",
      description = "With --bigquery-project: start, e.g. 2026-02-12T10:00:00Z.")
  Instant from;

  @Option(
      names = "--to",
      paramLabel = "UTC",
      description = "With --bigquery-project: end (exclusive).")
  Instant to;

  @Option(
      names = "--cpu",
      paramLabel = "FILE",
      description =
          "CPU per minute, one file per job (repeatable): vCPU-seconds"
              + " (columns minute, vcpu_seconds) or utilisation as Cloud Monitoring gives it (minute, utilization: fraction or %%).")
  List<Path> cpu = new ArrayList<>();

  @Option(
      names = "--vcpus",
      paramLabel = "N",
      description =
          "vCPUs of each job (with one --cpu file per job, each job is judged against its own);"
              + " repeat it to give each --cpu file's job its own, in their order. Without --cpu:"
              + " all jobs' vCPUs, for rows/s per vCPU.")
  List<Integer> vcpusGiven = new ArrayList<>();

  /** All jobs' vCPUs: the sum over the --cpu files' jobs, else as given or read from Monitoring. */
  int vcpus;

  /** Each job's CPU per minute and vCPUs (one --cpu file per job). */
  List<JobCpu> jobCpu = List.of();

  @Option(
      names = "--phase",
      paramLabel = "NAME=HH:MM..HH:MM",
      description = "A phase by hand (repeatable); without any, phases are detected.")
  List<String> phases = new ArrayList<>();

  @Option(
      names = "--claim",
      paramLabel = "PHASE.METRIC=VALUE",
      description =
          "A published figure to check against the raw data, e.g. A1.rows_per_second=55791 (repeatable).")
  List<String> claims = new ArrayList<>();

  @Option(
      names = "--tables",
      defaultValue = "0",
      description = "Destination tables per job (connection estimate).")
  int tables;

  @Option(
      names = "--workers",
      defaultValue = "0",
      description = "Workers per job (connection estimate).")
  int workers;

  @Option(
      names = "--jobs",
      defaultValue = "0",
      description = "Jobs writing at once (connection estimate).")
  int jobs;

  @Option(names = "--pooled", description = "The jobs used Storage Write API connection pooling.")
  boolean pooled;

  @Option(
      names = "--connections",
      paramLabel = "N|FILE",
      description =
          "Concurrent connections observed: the peak, or a"
              + " series (CSV: a time column and connections/value, e.g. Monitoring's write/concurrent_connections or a local"
              + " round's concurrent_connections.csv), whose peak is used.")
  String connectionsGiven;

  int connections;

  @Option(
      names = "--table-rows",
      paramLabel = "N",
      defaultValue = "0",
      description =
          "The table's row count (SELECT COUNT(*)), to compare with the rows WRITE_API_TIMELINE counted as appended.")
  long tableRows;

  @Option(
      names = "--quota-mb-per-second",
      paramLabel = "MB/s",
      defaultValue = "314.5728",
      description =
          "The regional Storage Write API throughput quota: 300 MiB/s = 314.57 MB/s as measured; e.g. 3221"
              + " for the US and EU multi-regions (default: ${DEFAULT-VALUE}).")
  double quotaMbPerSecond;

  @Option(
      names = "--jobs-in",
      paramLabel = "PHASE=N",
      description = "How many jobs wrote during PHASE (repeatable), for the scaling diagnosis.")
  Map<String, Integer> jobsInPhase = new LinkedHashMap<>();

  @Option(
      names = "--monitoring-project",
      paramLabel = "PROJECT",
      description =
          "Read the vCPU series, peak vCPUs and peak connections from Cloud Monitoring (with --job).")
  String monitoringProject;

  @Option(
      names = "--job",
      paramLabel = "NAME",
      description = "With --monitoring-project: Dataflow job name(s) (repeatable).")
  List<String> jobNames = new ArrayList<>();

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Output directory (with --timeline; default: report).")
  Path out;

  @Override
  public Integer call() throws Exception {
    if (input.run != null) {
      if (!Files.isDirectory(input.run)) {
        throw new IllegalArgumentException("--run " + input.run + " is not a directory");
      }
      if (out != null) {
        throw new IllegalArgumentException(
            "--out "
                + out
                + " is for --timeline: --run rewrites report.md and"
                + " summary.json inside "
                + input.run
                + " itself (copy the directory first to keep the old report)");
      }
      RoundReport.write(input.run);
      System.out.println(
          "Wrote "
              + input.run.resolve(RunFiles.REPORT)
              + " and "
              + input.run.resolve(RunFiles.SUMMARY));
      return 0;
    }
    Charts.warmUpInBackground();
    List<TimelineRow> rows =
        input.timelines != null
            ? readAll(input.timelines)
            : BigQueryTimelineSource.connect(input.bigqueryProject)
                .read(
                    new BigQueryTimelineSource.Request(
                        input.bigqueryProject, region, dataset, bigqueryTables, from, to));
    if (rows.isEmpty()) {
      throw new IllegalArgumentException(
          (input.timelines != null
                  ? String.join(", ", input.timelines.stream().map(Path::toString).toList())
                  : "the timeline")
              + " has no rows: nothing to analyse (a header alone, or no appends in the window);"
              + " export a window in which the jobs wrote");
    }
    connections = ConnectionsSeries.peak(connectionsGiven);
    if (cpu.isEmpty() && vcpusGiven.size() > 1) {
      throw new IllegalArgumentException(
          "--vcpus is repeated without --cpu files: give all jobs' vCPUs once, or one --cpu file"
              + " per job with its --vcpus");
    }
    if (vcpusGiven.stream().anyMatch(v -> v <= 0)) {
      throw new IllegalArgumentException(
          "--vcpus " + vcpusGiven + ": every value must be a whole number above 0, e.g. 12");
    }
    jobCpu = cpu.isEmpty() ? List.of() : VcpuSecondsCsv.readAll(cpu, vcpusGiven);
    Map<Instant, Double> vcpuSeconds = JobCpu.summed(jobCpu);
    vcpus =
        !jobCpu.isEmpty() && !vcpusGiven.isEmpty()
            ? JobCpu.totalVcpus(jobCpu)
            : vcpusGiven.isEmpty() ? 0 : vcpusGiven.get(0);
    if (monitoringProject != null) {
      vcpuSeconds = fromMonitoring(rows);
    }
    if (!vcpuSeconds.isEmpty() && vcpus <= 0) {
      throw new IllegalArgumentException(
          "--cpu needs --vcpus N (the job's vCPUs) to turn vCPU-seconds into utilisation");
    }
    TimelineAnalysis analysis =
        TimelineAnalysis.of(
            rows,
            vcpuSeconds,
            vcpus,
            phases.stream().map(PhaseSpec::parse).toList(),
            writerEvidence(
                new Diagnoser.Topology(
                    tables, workers, jobs, pooled, connections, jobsInPhase, quotaMbPerSecond)));
    Path dir = out != null ? out : Path.of("report");
    if (tableRows < 0) {
      throw new IllegalArgumentException(
          "--table-rows " + tableRows + " must be 0 or more (SELECT COUNT(*) of the table)");
    }
    TimelineReport.write(analysis.withTableRows(tableRows), parseClaims(), dir);
    System.out.println(
        "Wrote "
            + dir.resolve(TimelineReport.MARKDOWN)
            + ", "
            + dir.resolve(TimelineReport.JSON)
            + " and "
            + dir.resolve(TimelineReport.CHART));
    return 0;
  }

  /**
   * Which jobs wrote when, for the writers per phase: a --connections series with a job column,
   * else one --cpu file per job (named by its file); neither, and writers are only estimated.
   */
  private Diagnoser.Topology writerEvidence(Diagnoser.Topology topology) throws IOException {
    Map<String, Map<Instant, Double>> byConnections =
        ConnectionsSeries.perJobMinutes(connectionsGiven);
    if (!byConnections.isEmpty()) {
      return topology.withJobActivity(
          byConnections, "connections series: jobs with open connections");
    }
    if (jobCpu.size() > 1 && monitoringProject == null) {
      Map<String, Map<Instant, Double>> byCpu = new LinkedHashMap<>();
      jobCpu.forEach(j -> byCpu.put(j.job(), j.vcpuSeconds()));
      return topology
          .withJobActivity(byCpu, "per-job CPU: jobs using CPU")
          .withJobCpu(vcpusGiven.isEmpty() ? List.of() : jobCpu);
    }
    return topology;
  }

  /**
   * Every file's rows. A file given twice, or exports that overlap (a row of the view in two
   * files), would count rows twice: refused, naming both.
   */
  private static List<TimelineRow> readAll(List<Path> files) throws IOException {
    List<TimelineRow> rows = new ArrayList<>();
    Map<Path, Path> given = new LinkedHashMap<>();
    Map<TimelineRow.Key, Path> seen = new HashMap<>();
    for (Path file : files) {
      if (!Files.isRegularFile(file)) {
        throw new IllegalArgumentException(
            "--timeline "
                + file
                + (Files.isDirectory(file) ? " is a directory" : " does not exist")
                + ": give an export of INFORMATION_SCHEMA.WRITE_API_TIMELINE (CSV or JSON), or --run DIR for a round's directory");
      }
      Path real = Files.exists(file) ? file.toRealPath() : file.toAbsolutePath().normalize();
      Path before = given.putIfAbsent(real, file);
      if (before != null) {
        throw new IllegalArgumentException(
            "--timeline "
                + file
                + " is given twice (also as "
                + before
                + "): its rows would count twice; give each export once");
      }
      List<TimelineRow> fileRows = TimelineCsv.read(file); // refuses a row repeated within the file
      if (files.size() > 1) {
        for (TimelineRow row : fileRows) {
          Path other = seen.putIfAbsent(row.key(), file);
          if (other != null) {
            throw new IllegalArgumentException(
                "--timeline "
                    + file
                    + " and "
                    + other
                    + " overlap: both have the row of "
                    + row.tableId()
                    + " at "
                    + row.start()
                    + " ("
                    + row.streamType()
                    + ", "
                    + row.errorCode()
                    + "); export"
                    + " runs apart without the overlap, or give one export that covers both");
          }
        }
      }
      rows.addAll(fileRows);
    }
    return rows;
  }

  /** vCPU-seconds per minute summed over --job, and --vcpus and --connections where not given. */
  private Map<Instant, Double> fromMonitoring(List<TimelineRow> rows) throws Exception {
    if (jobNames.isEmpty()) {
      throw new IllegalArgumentException(
          "--monitoring-project needs --job NAME (the Dataflow job(s) to read)");
    }
    Instant start =
        from != null
            ? from
            : rows.stream().map(TimelineRow::start).min(Instant::compareTo).orElseThrow();
    Instant end =
        to != null
            ? to
            : rows.stream()
                .map(TimelineRow::start)
                .max(Instant::compareTo)
                .orElseThrow()
                .plusSeconds(60);
    Map<Instant, Double> series = new TreeMap<>();
    try (MonitoringSource monitoring = MonitoringSource.connect(monitoringProject)) {
      int peakVcpus = 0;
      for (String job : jobNames) {
        monitoring
            .vcpuSecondsPerMinute(job, start, end)
            .forEach((m, v) -> series.merge(m, v, Double::sum));
        peakVcpus += monitoring.maxVcpus(job, start, end);
      }
      if (vcpus <= 0) {
        vcpus = peakVcpus;
      }
      if (connections <= 0) {
        connections = monitoring.peakConnections(start, end);
      }
    }
    return series;
  }

  private Map<String, Double> parseClaims() {
    Map<String, Double> parsed = new LinkedHashMap<>();
    for (String claim : claims) {
      int eq = claim.indexOf('=');
      try {
        parsed.put(claim.substring(0, eq), Double.parseDouble(claim.substring(eq + 1)));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("--claim " + claim + " is not PHASE.METRIC=NUMBER");
      }
    }
    return parsed;
  }

  /**
   * Bad input ends with one line naming it and exit code 2; I/O problems with 3 ({@link
   * MainErrors}), as under {@code ingestbench}.
   */
  public static CommandLine commandLine() {
    return new CommandLine(new AnalyzeCommand())
        .setUsageHelpWidth(100)
        .setExecutionExceptionHandler(
            (e, cl, parsed) -> MainErrors.report("analyze", e, cl.getErr()));
  }

  /**
   * {@code ./ingestbench analyze} starts here, on the analysis module's own classpath: a third of
   * the CLI's jars, which the JVM would otherwise open one by one looking for each class (~0.15 s).
   */
  public static void main(String[] args) {
    System.exit(commandLine().setCommandName("ingestbench analyze").execute(args));
  }
}
