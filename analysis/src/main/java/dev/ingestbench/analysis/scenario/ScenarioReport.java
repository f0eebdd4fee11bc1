package dev.ingestbench.analysis.scenario;

import dev.ingestbench.analysis.diagnosis.Verdict;
import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.report.Charts;
import dev.ingestbench.analysis.source.ProcessCpuCsv;
import dev.ingestbench.analysis.stages.JobVerificationTable;
import dev.ingestbench.analysis.stages.StagesTable;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.ProcessCpuColumns;
import dev.ingestbench.contracts.ResultLabel;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.contracts.ScenarioRunFiles;
import dev.ingestbench.contracts.ScenarioSample;
import dev.ingestbench.contracts.StepStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The report of a scenario run, from its raw files only (status markers, per-second samples,
 * results): for an ordered scenario the stage timeline, every job's rows/s with the stages marked,
 * per stage and job measures, comparisons between consecutive stages and the verification; for an
 * unordered one the configurations' means over iterations and Welch tests between them.
 */
public final class ScenarioReport {
  public static final String THROUGHPUT_CHART = "throughput.svg";
  public static final String CONNECTIONS_CHART = "connections.svg";
  public static final String ITERATIONS_CHART = "iterations.svg";

  private final ScenarioRunData data;
  private final Document doc = new Document();

  private ScenarioReport(ScenarioRunData data) {
    this.data = data;
  }

  /** Writes {@code report.md} and its charts into {@code dir}; returns the report's path. */
  public static Path write(Path dir) throws IOException {
    Path out = dir.resolve(RunFiles.REPORT);
    Files.writeString(out, render(dir), StandardCharsets.UTF_8);
    return out;
  }

  /** The report of the run in {@code dir} (its charts are written beside it). */
  static String render(Path dir) throws IOException {
    ScenarioRun run = RunJson.read(dir.resolve(RunFiles.SCENARIO_RUN), ScenarioRun.class);
    List<StepStatus> steps = ScenarioRunFiles.steps(dir);
    List<ResultRecord> results = ScenarioRunFiles.results(dir);
    ScenarioReport report = new ScenarioReport(new ScenarioRunData(dir, run, steps, results));
    report.header();
    if (steps.stream().anyMatch(s -> s.segment() > 0)
        || Files.exists(dir.resolve(RunFiles.SCENARIO_SAMPLES))) {
      report.staged(readSamples(dir.resolve(RunFiles.SCENARIO_SAMPLES)));
    } else {
      UnorderedSections.write(report.data, report.doc);
    }
    return report.doc.markdown();
  }

  static List<ScenarioSample> readSamples(Path file) throws IOException {
    List<ScenarioSample> samples = new ArrayList<>();
    if (!Files.isRegularFile(file)) {
      return samples;
    }
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int i = 1; i < lines.size(); i++) {
      if (!lines.get(i).isBlank()) {
        try {
          samples.add(ScenarioSample.parse(lines.get(i)));
        } catch (IllegalArgumentException e) {
          // A run killed mid-write leaves at most a partial last line: that second is not counted.
        }
      }
    }
    return samples;
  }

  private void header() {
    doc.heading(1, "Scenario `" + data.run().scenario() + "`");
    doc.paragraph(
        "Run `"
            + data.run().runId()
            + "` · target "
            + data.run().target()
            + runner()
            + " · scale "
            + Numbers.plain(data.run().scale())
            + " · started "
            + data.run().startedAt()
            + " · "
            + data.run().machine()
            + (data.run().vcpus() > 0
                ? ", " + data.run().vcpus() + " vCPUs"
                : " (workers per job: see the jobs' labels in results.jsonl)")
            + (data.run().machineCalibration() == null
                ? ""
                : " · this machine that day: "
                    + data.run().machineCalibration().describe()
                    + "; run.json's machine_calibration: compare runs of other days by it")
            + ".");
    if (data.run().scaled() == null || data.run().scaled().isEmpty()) {
      doc.paragraph("Run at full size.");
    } else {
      doc.paragraph(
          "Scaled from the file's full size (`--scale "
              + Numbers.plain(data.run().scale())
              + "`):");
      doc.bullets(
          data.run().scaled().entrySet().stream()
              .map(e -> "`" + e.getKey() + "`: " + e.getValue())
              .toList());
    }
  }

  /**
   * The jobs' runner, as their results are labelled: {@code " (DirectRunner)"}; empty on Dataflow,
   * whose target says it, and for runs labelled before the runner was.
   */
  private String runner() {
    if (data.onDataflow()) {
      return "";
    }
    return ResultRecord.firstLabel(data.results(), ResultLabel.RUNNER)
        .map(r -> " (" + r + ")")
        .orElse("");
  }

  private void staged(List<ScenarioSample> samples) throws IOException {
    List<Phase> phases = StagesTable.write(doc, data.steps(), data.onDataflow());
    // A scenario of searches and load tests only has no job stage to chart or measure.
    boolean jobStages = data.steps().stream().anyMatch(StepStatus::runsJobs);
    if (jobStages) {
      throughputCharts(samples, phases);
    }
    Map<String, Map<String, StageMeasures>> byStage = new LinkedHashMap<>();
    Table perStage = perStageAndJob(samples, byStage);
    if (jobStages) {
      doc.heading(2, "Per stage and job")
          .paragraph(
              "Steady seconds of each job within the stage by the rule of docs/methodology.md (the whole stage"
                  + " when it finds none); rows/s is their mean with a 95% confidence interval (Student's t); "
                  + (data.onDataflow()
                      ? "samples are the poll intervals of the jobs' counters; CPU is the vCPU time of the job's workers"
                          + " (Dataflow's TotalVcpuTime); Dataflow has no per-job connection count (see Google Cloud's view)."
                      : "CPU is the job's consumer process in those seconds; connections are its open AppendRows streams."))
          .table(perStage);
    }
    StageCostSection.write(data, doc);
    OtherStages.sourceCapacity(data, doc);
    OtherStages.maxRates(data, doc);
    Map<String, Map<String, StageMeasures>> compared = withoutIdleStages(byStage);
    BetweenStages.write(compared, doc);
    if (data.onDataflow()) {
      GoogleCloudView.write(data, doc);
      return;
    }
    diagnosis(compared, samples);
    JobVerificationTable.write(doc, data.steps(), data.results());
    doc.heading(2, "How it was measured")
        .paragraph(
            "Every second the runner read the BigQuery emulator's per-job counts (rows and bytes appended"
                + " by each job's Storage Write API client, open AppendRows streams, distinct messages accounted"
                + " for) and each job's consumer CPU time from /proc; the raw seconds are in `"
                + RunFiles.SCENARIO_SAMPLES
                + "`, every figure above is computed from them, and `"
                + RunFiles.RESULTS
                + "` holds the same figures as records. Each segment's emulator files"
                + " (write timeline, connections) and process logs are in `segment-N/`.");
  }

  /** Each job's measures in each job stage, into {@code byStage}; the table of them. */
  private Table perStageAndJob(
      List<ScenarioSample> samples, Map<String, Map<String, StageMeasures>> byStage) {
    Table t =
        Table.of(
            Column.text("Stage"),
            Column.text("Job"),
            Column.number("Rows/s"),
            Column.text("95% CI"),
            Column.number("MB/s"),
            Column.number("Steady s"),
            Column.number("CPU (vCPUs busy)"),
            Column.number("Rows per CPU-s"),
            Column.number("Peak connections"),
            Column.number("Rows"));
    for (StepStatus s : data.steps()) {
      if (!s.runsJobs()) {
        continue; // a load test's or a search's figures: their own sections below
      }
      long from = Instant.parse(s.startedAt()).getEpochSecond() + 1;
      long to = Instant.parse(s.endedAt()).getEpochSecond() + 1;
      Map<String, StageMeasures> measures = new LinkedHashMap<>();
      for (String job : s.jobs()) {
        measures.put(job, StageMeasures.of(samples, s.stage(), job, from, to));
      }
      measures.put(ResultRecord.ALL_JOBS, StageMeasures.of(samples, s.stage(), null, from, to));
      byStage.put(s.stage(), measures);
      measures.forEach((job, m) -> measuresRow(t, s.stage(), job, m));
    }
    return t;
  }

  private void measuresRow(Table t, String stage, String job, StageMeasures m) {
    String name = job.equals(ResultRecord.ALL_JOBS) ? "**all jobs**" : job;
    String cpu = Numbers.f2(m.vcpusBusy());
    if (m.rows() == 0) {
      t.row(
          stage,
          name,
          Numbers.MISSING,
          "no rows (starting up, or nothing to read)",
          "",
          "",
          cpu,
          "",
          Integer.toString(m.peakConnections()),
          "0");
      return;
    }
    t.row(
        stage,
        name,
        Numbers.f0(m.rowsPerSecond().mean()),
        Numbers.f0(m.rowsPerSecond().ci95Low()) + " – " + Numbers.f0(m.rowsPerSecond().ci95High()),
        Numbers.f2(m.mbPerSecond().mean()),
        Long.toString(m.steadySeconds()),
        cpu,
        Numbers.f0(m.rowsPerCpuSecond()),
        data.onDataflow() ? "n/a" : Integer.toString(m.peakConnections()),
        Numbers.count(m.rows()));
  }

  /**
   * The stages in which every running job had something to read: one in which a job had read
   * everything long before it ended measures an idle job, so it is said so here and kept out of the
   * comparisons and verdicts that follow.
   */
  private Map<String, Map<String, StageMeasures>> withoutIdleStages(
      Map<String, Map<String, StageMeasures>> byStage) {
    Map<String, List<String>> idle = new LinkedHashMap<>();
    for (ResultRecord r : data.results()) {
      if (r.metric().equals(ResultRecords.IDLE_SECONDS)) {
        idle.computeIfAbsent(r.stage(), k -> new ArrayList<>())
            .add(String.format(Locale.ROOT, "job %s for its last %,.0f s", r.job(), r.value()));
      }
    }
    if (idle.isEmpty()) {
      return byStage;
    }
    doc.heading(3, "Stages that did not measure what they are for")
        .paragraph(
            "A running job had nothing left to read (it had"
                + " read every message of its subscription): these stages are left out of the comparisons and the"
                + " diagnosis below. Give the jobs more to read (`publish.messages`, `publish.rate`, or a larger"
                + " `--scale`).")
        .bullets(
            idle.entrySet().stream()
                .map(e -> "**" + e.getKey() + "**: " + String.join(", ", e.getValue()))
                .toList());
    Map<String, Map<String, StageMeasures>> kept = new LinkedHashMap<>(byStage);
    kept.keySet().removeAll(idle.keySet());
    return kept;
  }

  private void throughputCharts(List<ScenarioSample> samples, List<Phase> phases)
      throws IOException {
    Map<String, List<Date>> x = new LinkedHashMap<>();
    Map<String, List<Double>> rows = new LinkedHashMap<>();
    Map<String, List<Double>> connections = new LinkedHashMap<>();
    for (ScenarioSample s : samples) {
      boolean measured = data.steps().stream().anyMatch(st -> st.stage().equals(s.stage()));
      if (!measured) {
        continue;
      }
      x.computeIfAbsent(s.job(), j -> new ArrayList<>())
          .add(Date.from(Instant.ofEpochSecond(s.epochSecond())));
      rows.computeIfAbsent(s.job(), j -> new ArrayList<>()).add((double) s.rows());
      connections
          .computeIfAbsent(s.job(), j -> new ArrayList<>())
          .add((double) s.openConnections());
    }
    Charts.lines(
        "Rows appended per second, per job (stages shaded)",
        "rows/s",
        "HH:mm:ss",
        x,
        rows,
        phases,
        data.dir().resolve(THROUGHPUT_CHART));
    doc.heading(2, "Throughput").image("Rows per second per job", THROUGHPUT_CHART);
    if (!data.onDataflow()) { // Dataflow counts no connections per job
      Charts.lines(
          "Open AppendRows streams per job",
          "connections",
          "HH:mm:ss",
          x,
          connections,
          phases,
          data.dir().resolve(CONNECTIONS_CHART));
      doc.image("Connections per job", CONNECTIONS_CHART);
    }
  }

  private void diagnosis(
      Map<String, Map<String, StageMeasures>> byStage, List<ScenarioSample> samples)
      throws IOException {
    if (byStage.isEmpty()) {
      doc.heading(2, "Diagnosis")
          .paragraph(
              "None: no stage measured what it is for (see above), so there is nothing to diagnose.");
      return;
    }
    Map<Integer, EmulatorStatus> emulators = new TreeMap<>();
    Map<Long, Double> machineCpu = new HashMap<>();
    Map<Long, Double> pubsubCpu = new HashMap<>();
    for (int segment : data.steps().stream().map(StepStatus::segment).distinct().toList()) {
      Path file = data.dir().resolve("segment-" + segment).resolve(RunFiles.BIGQUERY_EMULATOR);
      if (Files.isRegularFile(file) && Files.size(file) > 0) {
        // A segment killed (Ctrl-C, a crash) as its emulator was writing this leaves an empty file:
        // that segment then has no emulator verdicts, the rest of the report stands.
        emulators.put(segment, RunJson.read(file, EmulatorStatus.class));
      }
      for (ProcessCpuCsv.Sample p :
          ProcessCpuCsv.read(
              data.dir().resolve("segment-" + segment).resolve(RunFiles.PROCESSES_CPU))) {
        // A sample covers the second before its timestamp.
        machineCpu.merge(p.second().getEpochSecond() - 1, p.cpuSeconds(), Double::sum);
        if (p.process().equals(ProcessCpuColumns.PUBSUB_EMULATOR)) {
          pubsubCpu.merge(p.second().getEpochSecond() - 1, p.cpuSeconds(), Double::sum);
        }
      }
    }
    List<String> verdicts = new ArrayList<>();
    for (Verdict v :
        StageDiagnosis.of(
            data.steps().stream()
                .filter(s -> s.runsJobs() && byStage.containsKey(s.stage()))
                .toList(),
            byStage,
            samples,
            emulators,
            machineCpu,
            pubsubCpu,
            data.run().vcpus())) {
      verdicts.add("**" + v.verdict() + "**: " + v.evidence());
    }
    doc.heading(2, "Diagnosis")
        .paragraph(
            "The rules of docs/methodology.md, against the limits the scenario's BigQuery emulator"
                + " enforced; CPU-bound compares the jobs' consumers, and machine CPU-bound every process of the run"
                + " (processes_cpu.csv of each segment), with all of this machine's vCPUs.")
        .bullets(verdicts);
  }
}
