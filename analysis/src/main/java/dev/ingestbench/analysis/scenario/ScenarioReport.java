package dev.ingestbench.analysis.scenario;

import dev.ingestbench.analysis.diagnosis.Verdict;
import dev.ingestbench.analysis.phases.Phase;
import dev.ingestbench.analysis.report.Charts;
import dev.ingestbench.analysis.source.ProcessCpuCsv;
import dev.ingestbench.analysis.stats.Comparison;
import dev.ingestbench.analysis.stats.Estimate;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.ProcessCpuColumns;
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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
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

  private final Path dir;
  private final ScenarioRun run;
  private final List<StepStatus> steps;
  private final List<ResultRecord> results;
  private final StringBuilder md = new StringBuilder();

  private ScenarioReport(
      Path dir, ScenarioRun run, List<StepStatus> steps, List<ResultRecord> results) {
    this.dir = dir;
    this.run = run;
    this.steps = steps;
    this.results = results;
  }

  /** Writes {@code report.md} and its charts into {@code dir}; returns the report's path. */
  public static Path write(Path dir) throws IOException {
    ScenarioRun run = RunJson.read(dir.resolve(RunFiles.SCENARIO_RUN), ScenarioRun.class);
    List<StepStatus> steps = ScenarioRunFiles.steps(dir);
    List<ResultRecord> results = ScenarioRunFiles.results(dir);
    ScenarioReport report = new ScenarioReport(dir, run, steps, results);
    report.header();
    if (steps.stream().anyMatch(s -> s.segment() > 0)
        || Files.exists(dir.resolve(RunFiles.SCENARIO_SAMPLES))) {
      report.staged(readSamples(dir.resolve(RunFiles.SCENARIO_SAMPLES)));
    } else {
      report.unordered();
    }
    Path out = dir.resolve(RunFiles.REPORT);
    Files.writeString(out, report.md.toString(), StandardCharsets.UTF_8);
    return out;
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
    md.append("# Scenario `").append(run.scenario()).append("`\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "Run `%s` · target %s · scale %s · started %s · %s%s.%n%n",
            run.runId(),
            run.target(),
            trim(run.scale()),
            run.startedAt(),
            run.machine(),
            run.vcpus() > 0
                ? ", " + run.vcpus() + " vCPUs"
                : " (workers per job: see the jobs' labels in results.jsonl)"));
    if (run.scaled() == null || run.scaled().isEmpty()) {
      md.append("Run at full size.\n\n");
    } else {
      md.append("Scaled from the file's full size (`--scale ")
          .append(trim(run.scale()))
          .append("`):\n\n");
      run.scaled()
          .forEach((k, v) -> md.append("- `").append(k).append("`: ").append(v).append('\n'));
      md.append('\n');
    }
  }

  private void staged(List<ScenarioSample> samples) throws IOException {
    md.append(
            "## Stages\n\n| # | Stage | Condition | Met | Started (UTC) | Lasted | Jobs running | Measured in |\n")
        .append("|---:|:---|:---|:---|:---|---:|:---|:---|\n");
    List<Phase> phases = new ArrayList<>();
    for (StepStatus s : steps) {
      Instant start = Instant.parse(s.startedAt());
      Instant end = Instant.parse(s.endedAt());
      phases.add(new Phase(s.stage(), 0, 0, start, end));
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %s | %d s | %s | segment-%d |%n",
              s.step().substring(0, 2),
              s.stage(),
              s.condition(),
              s.conditionMet() ? "yes" : "no (gave up at max)",
              start.toString().substring(11, 19),
              Duration.between(start, end).getSeconds(),
              String.join(", ", s.jobs()),
              s.segment()));
    }
    md.append('\n');
    if (steps.stream().map(StepStatus::segment).distinct().count() > 1) {
      md.append(
          onDataflow()
              ? "The run was resumed: a later segment launched again the jobs that were running before its first stage"
                  + " and warmed them up (not measured); the subscriptions kept their backlog. Compare stages measured in"
                  + " different segments with that in mind.\n\n"
              : "The run was resumed: a later segment restarted the emulators, published the backlog again and "
                  + "warmed up the jobs that were running before its first stage (not measured). Compare stages "
                  + "measured in different segments with that in mind.\n\n");
    }
    // A scenario of searches and load tests only has no job stage to chart or measure.
    boolean jobStages = steps.stream().anyMatch(StepStatus::runsJobs);
    if (jobStages) {
      throughputCharts(samples, phases);
    }
    StringBuilder perStage = jobStages ? md : new StringBuilder();
    perStage
        .append("## Per stage and job\n\n")
        .append(
            "Steady seconds of each job within the stage by the rule of docs/methodology.md (the whole stage")
        .append(
            " when it finds none); rows/s is their mean with a 95% confidence interval (Student's t); ")
        .append(
            onDataflow()
                ? "samples are the poll intervals of the jobs' counters; CPU is the vCPU time of the job's workers"
                    + " (Dataflow's TotalVcpuTime); Dataflow has no per-job connection count (see Google Cloud's view).\n\n"
                : "CPU is the job's consumer process in those seconds; connections are its open AppendRows streams.\n\n")
        .append(
            "| Stage | Job | Rows/s | 95% CI | MB/s | Steady s | CPU (vCPUs busy) | Rows per CPU-s | Peak connections | Rows |\n")
        .append("|:---|:---|---:|:---|---:|---:|---:|---:|---:|---:|\n");
    Map<String, Map<String, StageMeasures>> byStage = new LinkedHashMap<>();
    for (StepStatus s : steps) {
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
      measures.forEach(
          (job, m) ->
              md.append(
                  m.rows() == 0
                      ? String.format(
                          Locale.ROOT,
                          "| %s | %s | — | no rows (starting up, or nothing to read) | | | %s | | %d | 0 |%n",
                          s.stage(),
                          job.equals(ResultRecord.ALL_JOBS) ? "**all jobs**" : job,
                          Double.isNaN(m.vcpusBusy())
                              ? "n/a"
                              : String.format(Locale.ROOT, "%.2f", m.vcpusBusy()),
                          m.peakConnections())
                      : String.format(
                          Locale.ROOT,
                          "| %s | %s | %,.0f | %,.0f – %,.0f | %.2f | %d | %s | %s | %s | %,d |%n",
                          s.stage(),
                          job.equals(ResultRecord.ALL_JOBS) ? "**all jobs**" : job,
                          m.rowsPerSecond().mean(),
                          m.rowsPerSecond().ci95Low(),
                          m.rowsPerSecond().ci95High(),
                          m.mbPerSecond().mean(),
                          m.steadySeconds(),
                          Double.isNaN(m.vcpusBusy())
                              ? "n/a"
                              : String.format(Locale.ROOT, "%.2f", m.vcpusBusy()),
                          Double.isNaN(m.rowsPerCpuSecond())
                              ? "n/a"
                              : String.format(Locale.ROOT, "%,.0f", m.rowsPerCpuSecond()),
                          onDataflow() ? "n/a" : Integer.toString(m.peakConnections()),
                          m.rows())));
    }
    md.append('\n');
    sourceCapacity();
    maxRates();
    Map<String, Map<String, StageMeasures>> compared = withoutIdleStages(byStage);
    betweenStages(compared);
    if (onDataflow()) {
      googleCloudView();
      return;
    }
    diagnosis(compared, samples);
    verification();
    md.append("## How it was measured\n\n")
        .append(
            "Every second the runner read the BigQuery emulator's per-job counts (rows and bytes appended")
        .append(
            " by each job's Storage Write API client, open AppendRows streams, distinct messages accounted")
        .append(" for) and each job's consumer CPU time from /proc; the raw seconds are in `")
        .append(RunFiles.SCENARIO_SAMPLES)
        .append("`, every figure above is computed from them, and `")
        .append(RunFiles.RESULTS)
        .append("` holds the same figures as records. Each segment's emulator files")
        .append(" (write timeline, connections) and process logs are in `segment-N/`.\n");
  }

  /**
   * The stages in which every running job had something to read: one in which a job had read
   * everything long before it ended measures an idle job, so it is said so here and kept out of the
   * comparisons and verdicts that follow.
   */
  private Map<String, Map<String, StageMeasures>> withoutIdleStages(
      Map<String, Map<String, StageMeasures>> byStage) {
    Map<String, List<String>> idle = new LinkedHashMap<>();
    for (ResultRecord r : results) {
      if (r.metric().equals(ResultRecords.IDLE_SECONDS)) {
        idle.computeIfAbsent(r.stage(), k -> new ArrayList<>())
            .add(String.format(Locale.ROOT, "job %s for its last %,.0f s", r.job(), r.value()));
      }
    }
    if (idle.isEmpty()) {
      return byStage;
    }
    md.append(
            "### Stages that did not measure what they are for\n\nA running job had nothing left to read (it had")
        .append(
            " read every message of its subscription): these stages are left out of the comparisons and the")
        .append(
            " diagnosis below. Give the jobs more to read (`publish.messages`, `publish.rate`, or a larger")
        .append(" `--scale`).\n\n");
    idle.forEach(
        (stage, jobs) ->
            md.append("- **")
                .append(stage)
                .append("**: ")
                .append(String.join(", ", jobs))
                .append('\n'));
    md.append('\n');
    Map<String, Map<String, StageMeasures>> kept = new LinkedHashMap<>(byStage);
    kept.keySet().removeAll(idle.keySet());
    return kept;
  }

  /**
   * The load-test stages' figures, from their results (each test's own report is in its directory).
   */
  private void sourceCapacity() {
    List<StepStatus> tests = steps.stream().filter(StepStatus::isLoadTest).toList();
    if (tests.isEmpty()) {
      return;
    }
    md.append("## Source capacity (Pub/Sub load-test stages)\n\n")
        .append(
            "Each ran `ingestbench pubsub-load` against the run's own emulator on a topic of its own")
        .append(
            " (docs/pubsub-load.md): what the source side of this machine delivers, with the jobs shown running.")
        .append(
            " Rates are the mean of the test's per-second samples with a 95% confidence interval; its report and")
        .append(" raw samples are in `pubsub-load-STEP/`.\n\n")
        .append(
            "| Stage | Jobs running | Published msg/s | 95% CI | Received msg/s | 95% CI | Publish p99 ms |")
        .append(
            " End-to-end p99 ms | Missing | Duplicates |\n|:---|:---|---:|:---|---:|:---|---:|---:|---:|---:|\n");
    for (StepStatus s : tests) {
      Map<String, Double> m = new LinkedHashMap<>();
      results.stream()
          .filter(r -> r.stage().equals(s.stage()) && r.iteration() == s.iteration())
          .forEach(r -> m.put(r.metric(), r.value()));
      md.append(
          String.format(
              Locale.ROOT,
              "| [%s](pubsub-load-%s/report.md) | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
              s.stage(),
              s.step(),
              s.jobs().isEmpty() ? "none" : String.join(", ", s.jobs()),
              fmt(m.get("pubsub_published_messages_per_second"), "%,.0f"),
              range(
                  m.get("pubsub_published_messages_per_second_ci95_low"),
                  m.get("pubsub_published_messages_per_second_ci95_high")),
              fmt(m.get("pubsub_received_messages_per_second"), "%,.0f"),
              range(
                  m.get("pubsub_received_messages_per_second_ci95_low"),
                  m.get("pubsub_received_messages_per_second_ci95_high")),
              fmt(m.get("pubsub_publish_p99_ms"), "%,.1f"),
              fmt(m.get("pubsub_end_to_end_p99_ms"), "%,.1f"),
              fmt(m.get("pubsub_missing"), "%,.0f"),
              fmt(m.get("pubsub_duplicates"), "%,.0f")));
    }
    md.append('\n');
  }

  /** The max-rate stages' answers, from their results (each search's report is its round's). */
  private void maxRates() {
    List<StepStatus> searches = steps.stream().filter(StepStatus::isMaxRateSearch).toList();
    if (searches.isEmpty()) {
      return;
    }
    md.append("## Highest sustained rate (max-rate stages)\n\n")
        .append(
            "Each ran `ingestbench round --find-max-rate` with its job's settings on servers of its own")
        .append(
            " (docs/max-rate.md), sharing this machine with the jobs shown running: the highest rate")
        .append(
            " the job kept up with inside the latency SLO, the 95% interval of its per-second writes,")
        .append(
            " and the limit that ended the search; each search's report is in `max-rate-STEP/`.\n\n")
        .append(
            "| Stage | Job | Jobs running | Highest sustained rows/s | 95% CI | Per vCPU | Rows per consumer CPU-s |")
        .append(
            " Publisher alone msg/s | Probes | Limited by |\n|:---|:---|:---|---:|:---|---:|---:|---:|---:|:---|\n");
    for (StepStatus s : searches) {
      Map<String, Double> m = new LinkedHashMap<>();
      String[] job = {"?"};
      String[] limit = {"?"};
      results.stream()
          .filter(r -> r.stage().equals(s.stage()) && r.iteration() == s.iteration())
          .forEach(
              r -> {
                m.put(r.metric(), r.value());
                job[0] = r.job();
                if (r.labels().containsKey("limited_by")) {
                  limit[0] = r.labels().get("limited_by");
                }
              });
      md.append(
          String.format(
              Locale.ROOT,
              "| [%s](max-rate-%s/report.md) | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
              s.stage(),
              s.step(),
              job[0],
              s.jobs().isEmpty() ? "none" : String.join(", ", s.jobs()),
              m.containsKey("max_sustainable_rows_per_second")
                  ? fmt(m.get("max_sustainable_rows_per_second"), "%,.0f")
                  : "none sustained",
              range(
                  m.get("max_sustainable_rows_per_second_ci95_low"),
                  m.get("max_sustainable_rows_per_second_ci95_high")),
              fmt(m.get("max_sustainable_rows_per_second_per_vcpu"), "%,.0f"),
              fmt(m.get("max_rate_rows_per_consumer_cpu_second"), "%,.0f"),
              fmt(m.get("publisher_capacity_messages_per_second"), "%,.0f"),
              fmt(m.get("max_rate_probes"), "%,.0f"),
              limit[0]));
    }
    md.append('\n');
  }

  private static String range(Double low, Double high) {
    return low == null || high == null
        ? "—"
        : String.format(Locale.ROOT, "%,.0f – %,.0f", low, high);
  }

  private boolean onDataflow() {
    return "dataflow".equals(run.target());
  }

  /**
   * A Dataflow run: what BigQuery's WRITE_API_TIMELINE and Cloud Monitoring say about each stage,
   * read after the run (results with metrics {@code bigquery_*} and {@code monitoring_*}), and how
   * the job-level figures were measured.
   */
  private void googleCloudView() {
    md.append("## Google Cloud's view\n\n")
        .append(
            "Read after the run: rows/s and MB/s of the run's tables from INFORMATION_SCHEMA.WRITE_API_TIMELINE")
        .append(" (whole minutes inside the stage, all jobs together; `")
        .append(RunFiles.GCP_TIMELINE)
        .append(
            "`), the project's peak concurrent Storage Write API connections and each job's vCPUs busy from")
        .append(" Cloud Monitoring (`")
        .append(RunFiles.GCP_MONITORING)
        .append("`). A stage shorter than two minutes")
        .append(
            " has no whole minute; a missing figure means the view had no data (or no permission, as the run said).")
        .append(" `ingestbench analyze --timeline ")
        .append(RunFiles.GCP_TIMELINE)
        .append("` gives that timeline's own phases and quota verdicts.\n\n")
        .append(
            "| Stage | Table rows/s | 95% CI | Table MB/s | Minutes | Peak connections | vCPUs busy per job |\n")
        .append("|:---|---:|:---|---:|---:|---:|:---|\n");
    for (StepStatus s : steps) {
      Map<String, Double> all = new LinkedHashMap<>();
      List<String> vcpus = new ArrayList<>();
      for (ResultRecord r : results) {
        if (r.stage().equals(s.stage()) && r.iteration() == s.iteration()) {
          if (r.job().equals(ResultRecord.ALL_JOBS)) {
            all.put(r.metric(), r.value());
          } else if (r.metric().equals("monitoring_vcpus_busy")) {
            vcpus.add(String.format(Locale.ROOT, "%s %.1f", r.job(), r.value()));
          }
        }
      }
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %s | %s | %s |%n",
              s.stage(),
              fmt(all.get("bigquery_rows_per_second"), "%,.0f"),
              all.containsKey("bigquery_rows_per_second_ci95_low")
                  ? String.format(
                      Locale.ROOT,
                      "%,.0f – %,.0f",
                      all.get("bigquery_rows_per_second_ci95_low"),
                      all.get("bigquery_rows_per_second_ci95_high"))
                  : "—",
              fmt(all.get("bigquery_mb_per_second"), "%.2f"),
              fmt(all.get("bigquery_minutes"), "%.0f"),
              fmt(all.get("monitoring_peak_connections"), "%.0f"),
              vcpus.isEmpty() ? "—" : String.join(", ", vcpus)));
    }
    Path diagnosis = dir.resolve(RunFiles.GCP_DIAGNOSIS);
    if (Files.isRegularFile(diagnosis)) {
      md.append(
              "\n### Diagnosis from the timeline\n\nThe rules of docs/methodology.md applied to WRITE_API_TIMELINE with")
          .append(
              " each stage's whole minutes as a phase (as `ingestbench analyze` does with `--phase`):\n\n");
      Verdict[] verdicts;
      try {
        verdicts = RunJson.read(diagnosis, Verdict[].class);
      } catch (IOException e) {
        verdicts = new Verdict[0];
      }
      if (verdicts.length == 0) {
        md.append("- No stage had a whole minute in the timeline: nothing to judge.\n");
      }
      for (Verdict v : verdicts) {
        md.append("- **").append(v.verdict()).append("**: ").append(v.evidence()).append('\n');
      }
    }
    md.append("\n## How it was measured\n\n")
        .append(
            "Every poll interval the runner read each Dataflow job's counters through the Dataflow API: rows")
        .append(
            " appended by BigQueryIO's Storage Write step (`recordsAppended`), payload bytes the consumer converted")
        .append(
            " (`message_bytes`) and the workers' vCPU time (`TotalVcpuTime`); the intervals are in `")
        .append(RunFiles.SCENARIO_SAMPLES)
        .append("` and every job-level figure above is computed from them. Every")
        .append(" job launched, with its Dataflow id and final state, is in `")
        .append(RunFiles.DATAFLOW_JOBS)
        .append(
            "`. Rows are not checked one by one on Dataflow: duplicates and losses are verified by the local")
        .append(" target, which runs the same consumer code.\n");
  }

  private static String fmt(Double value, String format) {
    return value == null ? "—" : String.format(Locale.ROOT, format, value);
  }

  private void throughputCharts(List<ScenarioSample> samples, List<Phase> phases)
      throws IOException {
    Map<String, List<Date>> x = new LinkedHashMap<>();
    Map<String, List<Double>> rows = new LinkedHashMap<>();
    Map<String, List<Double>> connections = new LinkedHashMap<>();
    for (ScenarioSample s : samples) {
      boolean measured = steps.stream().anyMatch(st -> st.stage().equals(s.stage()));
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
        dir.resolve(THROUGHPUT_CHART));
    md.append("## Throughput\n\n![Rows per second per job](")
        .append(THROUGHPUT_CHART)
        .append(")\n\n");
    if (!onDataflow()) { // Dataflow counts no connections per job
      Charts.lines(
          "Open AppendRows streams per job",
          "connections",
          "HH:mm:ss",
          x,
          connections,
          phases,
          dir.resolve(CONNECTIONS_CHART));
      md.append("![Connections per job](").append(CONNECTIONS_CHART).append(")\n\n");
    }
  }

  /**
   * Each job (and all jobs) in a stage against the previous stage it ran in: Welch on per-second
   * rates.
   */
  private void betweenStages(Map<String, Map<String, StageMeasures>> byStage) {
    List<String> lines = new ArrayList<>();
    List<String> stages = new ArrayList<>(byStage.keySet());
    for (int i = 1; i < stages.size(); i++) {
      for (Map.Entry<String, StageMeasures> e : byStage.get(stages.get(i)).entrySet()) {
        String job = e.getKey();
        for (int k = i - 1; k >= 0; k--) {
          StageMeasures before = byStage.get(stages.get(k)).get(job);
          if (before != null && (before.rows() == 0 || e.getValue().rows() == 0)) {
            lines.add(
                String.format(
                    Locale.ROOT,
                    "| %s | %s → %s | %,.0f → %,.0f | n/a | n/a | not compared: no rows"
                        + " in one of them (a job starting up writes none) |",
                    job.equals(ResultRecord.ALL_JOBS) ? "**all jobs**" : job,
                    stages.get(k),
                    stages.get(i),
                    before.rowsPerSecond().mean(),
                    e.getValue().rowsPerSecond().mean()));
            break;
          }
          if (before != null) {
            Comparison c =
                Comparison.of(
                    stages.get(k),
                    before.steadyRowsPerSecond(),
                    stages.get(i),
                    e.getValue().steadyRowsPerSecond());
            lines.add(
                String.format(
                    Locale.ROOT,
                    "| %s | %s → %s | %,.0f → %,.0f | %s | %s | %s |",
                    job.equals(ResultRecord.ALL_JOBS) ? "**all jobs**" : job,
                    stages.get(k),
                    stages.get(i),
                    before.rowsPerSecond().mean(),
                    e.getValue().rowsPerSecond().mean(),
                    pct(c.differencePct()),
                    Double.isNaN(c.ci95LowPct())
                        ? "n/a"
                        : pct(c.ci95LowPct()) + " to " + pct(c.ci95HighPct()),
                    c.verdict()));
            break;
          }
        }
      }
    }
    if (lines.isEmpty()) {
      return;
    }
    md.append(
            "## Between stages\n\nEach job's steady rows/s in a stage against the last earlier stage it ran in")
        .append(
            " (Welch's t-test on the rates of the steady samples, 95% CI of the difference). Those rates are not")
        .append(" independent, so read the interval as a guide to precision.\n\n")
        .append(
            "| Job | Stages | Rows/s | Change | 95% CI | Verdict |\n|:---|:---|:---|---:|:---|:---|\n");
    lines.forEach(l -> md.append(l).append('\n'));
    md.append('\n');
  }

  private void diagnosis(
      Map<String, Map<String, StageMeasures>> byStage, List<ScenarioSample> samples)
      throws IOException {
    if (byStage.isEmpty()) {
      md.append(
          "## Diagnosis\n\nNone: no stage measured what it is for (see above), so there is nothing to diagnose.\n\n");
      return;
    }
    Map<Integer, EmulatorStatus> emulators = new TreeMap<>();
    Map<Long, Double> machineCpu = new HashMap<>();
    Map<Long, Double> pubsubCpu = new HashMap<>();
    for (int segment : steps.stream().map(StepStatus::segment).distinct().toList()) {
      Path file = dir.resolve("segment-" + segment).resolve(RunFiles.BIGQUERY_EMULATOR);
      if (Files.isRegularFile(file) && Files.size(file) > 0) {
        // A segment killed (Ctrl-C, a crash) as its emulator was writing this leaves an empty file:
        // that segment then has no emulator verdicts, the rest of the report stands.
        emulators.put(segment, RunJson.read(file, EmulatorStatus.class));
      }
      for (ProcessCpuCsv.Sample p :
          ProcessCpuCsv.read(dir.resolve("segment-" + segment).resolve(RunFiles.PROCESSES_CPU))) {
        // A sample covers the second before its timestamp.
        machineCpu.merge(p.second().getEpochSecond() - 1, p.cpuSeconds(), Double::sum);
        if (p.process().equals(ProcessCpuColumns.PUBSUB_EMULATOR)) {
          pubsubCpu.merge(p.second().getEpochSecond() - 1, p.cpuSeconds(), Double::sum);
        }
      }
    }
    md.append(
            "## Diagnosis\n\nThe rules of docs/methodology.md, against the limits the scenario's BigQuery emulator")
        .append(
            " enforced; CPU-bound compares the jobs' consumers, and machine CPU-bound every process of the run")
        .append(" (processes_cpu.csv of each segment), with all of this machine's vCPUs.\n\n");
    for (Verdict v :
        StageDiagnosis.of(
            steps.stream().filter(s -> s.runsJobs() && byStage.containsKey(s.stage())).toList(),
            byStage,
            samples,
            emulators,
            machineCpu,
            pubsubCpu,
            run.vcpus())) {
      md.append("- **").append(v.verdict()).append("**: ").append(v.evidence()).append('\n');
    }
    md.append('\n');
  }

  private void verification() {
    // Each job is verified once it has stopped, with the last stage it ran in.
    Map<String, String> lastStage = new LinkedHashMap<>();
    for (StepStatus s : steps) {
      s.jobs().forEach(job -> lastStage.put(job, s.stage()));
    }
    md.append(
            "## Verification\n\nEach job once it had stopped, with the last stage it ran in: every job reads every")
        .append(
            " message of its own subscription; the BigQuery emulator checks every row's event index;")
        .append(
            " **left** is what was still in the job's subscription (or unread by its Kafka group), counted by")
        .append(" reading it; **lost** = published - accounted for - left, never clamped.\n\n")
        .append(
            "| Job | Last stage | Published | Accounted for | Duplicates | Dead-lettered | Left | Lost |\n")
        .append("|:---|:---|---:|---:|---:|---:|---:|:---|\n");
    lastStage.forEach(
        (job, stage) -> {
          Map<String, Double> m = new LinkedHashMap<>();
          results.stream()
              .filter(r -> r.job().equals(job) && r.stage().equals(stage))
              .forEach(r -> m.put(r.metric(), r.value()));
          String lost;
          if (m.containsKey("lost")) {
            lost =
                m.get("lost") == 0 ? "0" : String.format(Locale.ROOT, "**%,.0f**", m.get("lost"));
          } else if (m.containsKey(
              "unread")) { // a run recorded before jobs were verified once stopped
            lost =
                String.format(
                    Locale.ROOT,
                    "not counted (%,.0f not read when the stage ended)",
                    m.get("unread"));
          } else {
            lost = "not verified (see the run's output)";
          }
          md.append(
              String.format(
                  Locale.ROOT,
                  "| %s | %s | %s | %,.0f | %,.0f | %s | %s | %s |%n",
                  job,
                  stage,
                  count(m.get("published")),
                  m.getOrDefault("accounted_for", 0.0),
                  m.getOrDefault("duplicates", 0.0),
                  count(m.get("dead_lettered")),
                  count(m.get("left")),
                  lost));
        });
    md.append('\n');
  }

  private static String count(Double value) {
    return value == null ? "n/a" : String.format(Locale.ROOT, "%,.0f", value);
  }

  private void unordered() throws IOException {
    Map<String, List<Double>> rates = new LinkedHashMap<>();
    Map<String, Map<String, Double>> sums = new LinkedHashMap<>();
    md.append(
            "## Iterations\n\nIn the order they ran (shuffled, each configuration first equally often).\n\n")
        .append(
            "| Step | Configuration | Iteration | Rows/s | Rows per CPU-s | Lost | Duplicates | Started (UTC) |\n")
        .append("|:---|:---|---:|---:|---:|---:|---:|:---|\n");
    List<StepStatus> ordered =
        steps.stream().sorted(Comparator.comparing(StepStatus::startedAt)).toList();
    for (StepStatus s : ordered) {
      Map<String, Double> m = new LinkedHashMap<>();
      results.stream()
          .filter(r -> r.stage().equals(s.stage()) && r.iteration() == s.iteration())
          .forEach(r -> m.put(r.metric(), r.value()));
      if (m.containsKey("rows_per_second")) {
        rates.computeIfAbsent(s.stage(), k -> new ArrayList<>()).add(m.get("rows_per_second"));
      }
      Map<String, Double> total = sums.computeIfAbsent(s.stage(), k -> new LinkedHashMap<>());
      total.merge("lost", m.getOrDefault("lost", 0.0), Double::sum);
      total.merge("duplicates", m.getOrDefault("duplicates", 0.0), Double::sum);
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %d | %s | %s | %,.0f | %,.0f | %s |%n",
              s.step(),
              s.stage(),
              s.iteration(),
              num(m.get("rows_per_second")),
              num(m.get("rows_per_cpu_second")),
              m.getOrDefault("lost", 0.0),
              m.getOrDefault("duplicates", 0.0),
              s.startedAt().substring(11, 19)));
    }
    md.append("\nEach iteration's directory under `iterations/` holds its own round report.\n\n");
    Charts.iterations(
        "Steady rows/s of each iteration, per configuration",
        "rows/s",
        rates,
        dir.resolve(ITERATIONS_CHART));
    md.append("![Rows/s per iteration](").append(ITERATIONS_CHART).append(")\n\n");
    md.append(
            "## Configurations\n\nMean of the iterations' steady rows/s with a 95% confidence interval over")
        .append(
            " iterations (Student's t, n − 1 degrees of freedom): iterations are independent runs, so this")
        .append(" interval, unlike a per-second one, is a fair measure of run-to-run noise.\n\n")
        .append("| Configuration | Iterations | Rows/s mean | 95% CI | SD | Lost | Duplicates |\n")
        .append("|:---|---:|---:|:---|---:|---:|---:|\n");
    rates.forEach(
        (config, values) -> {
          Estimate e = Estimate.of(values);
          md.append(
              String.format(
                  Locale.ROOT,
                  "| %s | %d | %,.0f | %,.0f – %,.0f | %,.0f | %,.0f | %,.0f |%n",
                  config,
                  e.n(),
                  e.mean(),
                  e.ci95Low(),
                  e.ci95High(),
                  e.stddev(),
                  sums.get(config).get("lost"),
                  sums.get(config).get("duplicates")));
        });
    List<String> configs = new ArrayList<>(rates.keySet());
    if (configs.size() > 1) {
      md.append("\n## Comparisons\n\nWelch's t-test on the iterations' rows/s.\n\n")
          .append("| A | B | Change B vs A | 95% CI | Verdict |\n|:---|:---|---:|:---|:---|\n");
      for (int i = 0; i < configs.size(); i++) {
        for (int j = i + 1; j < configs.size(); j++) {
          Comparison c =
              Comparison.of(
                  configs.get(i),
                  rates.get(configs.get(i)),
                  configs.get(j),
                  rates.get(configs.get(j)));
          md.append(
              String.format(
                  Locale.ROOT,
                  "| %s | %s | %s | %s | %s |%n",
                  configs.get(i),
                  configs.get(j),
                  pct(c.differencePct()),
                  Double.isNaN(c.ci95LowPct())
                      ? "n/a"
                      : pct(c.ci95LowPct()) + " to " + pct(c.ci95HighPct()),
                  c.verdict()));
        }
      }
    }
    md.append('\n');
  }

  private static String num(Double v) {
    return v == null ? "n/a" : String.format(Locale.ROOT, "%,.0f", v);
  }

  private static String pct(double v) {
    return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%+.1f%%", v);
  }

  private static String trim(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
