package dev.ingestbench.analysis.summary;

import dev.ingestbench.contracts.ResultLabel;
import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.contracts.ScenarioRunFiles;
import dev.ingestbench.scenario.ScenarioException;
import dev.ingestbench.scenario.ScenarioFile;
import dev.ingestbench.scenario.ScenarioPlan;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scenario run's rows, one per job and stage (or configuration and iteration): its {@code
 * run.json} (target, scale, machine), the {@code scenario.yaml} it copied (source, message, rate)
 * and its {@code results.jsonl} (what each job did, and its verification in its last stage).
 */
final class ScenarioRows {
  /** Result records that are not one job's: a stage's sum and a load test's. */
  private static final List<String> NOT_JOBS = List.of(ResultRecord.ALL_JOBS, "pubsub-load");

  private ScenarioRows() {}

  static List<RunRow> of(String name, Path dir) throws IOException {
    ScenarioRun run = RunJson.read(dir.resolve(RunFiles.SCENARIO_RUN), ScenarioRun.class);
    ScenarioPlan plan;
    try {
      plan = ScenarioPlan.of(ScenarioFile.load(dir.resolve(RunFiles.SCENARIO)), run.scale(), 0);
    } catch (ScenarioException e) {
      throw new IOException(dir.resolve(RunFiles.SCENARIO) + ": " + e.getMessage(), e);
    }
    Map<String, Map<String, ResultRecord>> byStep = new LinkedHashMap<>();
    for (ResultRecord r : ScenarioRunFiles.results(dir)) {
      if (!NOT_JOBS.contains(r.job())) {
        byStep
            .computeIfAbsent(
                r.iteration() + "/" + r.stage() + "/" + r.job(), k -> new LinkedHashMap<>())
            .put(r.metric(), r);
      }
    }
    List<RunRow> rows = new ArrayList<>();
    for (Map<String, ResultRecord> metrics : byStep.values()) {
      ResultRecord any = metrics.values().iterator().next();
      Map<String, String> labels = any.labels();
      String writeMethod = labels.get(ResultLabel.WRITE_METHOD.key());
      rows.add(
          new RunRow(
              name,
              "scenario",
              run.scenario(),
              any.stage(),
              any.job(),
              any.iteration(),
              plan.kafka() ? "kafka" : "pubsub",
              sink(run, labels),
              runner(run.target(), labels.get(ResultLabel.RUNNER.key())),
              plan.messageFormat(),
              plan.messageSize(),
              writeMethod,
              run.vcpus(),
              null,
              null,
              plan.liveMessages() > 0 ? plan.rate() : null,
              value(metrics, "rows_per_second"),
              value(metrics, "rows_per_second_ci95_low"),
              value(metrics, "rows_per_second_ci95_high"),
              null,
              null,
              null,
              metrics.containsKey("lost")
                  ? Verification.of(
                      Math.round(value(metrics, "lost")),
                      metrics.containsKey("duplicates")
                          ? Math.round(value(metrics, "duplicates"))
                          : 0,
                      "exactly-once".equals(writeMethod),
                      true)
                  : null,
              value(metrics, "usd_per_billion_rows"),
              value(metrics, "max_sustainable_rows_per_second"),
              metrics.containsKey("max_rate_probes")
                  ? metrics.get("max_rate_probes").labels().get(ResultLabel.LIMITED_BY.key())
                  : null,
              run.machineCalibration() == null
                  ? null
                  : run.machineCalibration().operationsPerSecond()));
    }
    return rows;
  }

  /** Where the job's pipeline ran: by the target, and on it by its {@code runner} label. */
  private static String runner(String target, String runnerLabel) {
    return switch (target) {
      case "dataflow" -> "Dataflow";
      case "flink" -> "Flink cluster";
      // Runs labelled before the runner was ran on embedded Flink.
      default -> (runnerLabel == null ? "FlinkRunner" : runnerLabel) + " (embedded)";
    };
  }

  private static Double value(Map<String, ResultRecord> metrics, String metric) {
    ResultRecord r = metrics.get(metric);
    return r == null || Double.isNaN(r.value()) ? null : r.value();
  }

  /** Where a job's rows went: its {@code sink} label (older runs: by the target). */
  private static String sink(ScenarioRun run, Map<String, String> labels) {
    if ("dataflow".equals(run.target())) {
      return "bigquery";
    }
    return "in-process".equals(labels.get(ResultLabel.SINK.key()))
        ? "in-process emulator"
        : "bigquery-emulator";
  }
}
