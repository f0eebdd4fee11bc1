package dev.ingestbench.analysis.scenario;

import dev.ingestbench.contracts.ResultRecord;
import dev.ingestbench.contracts.ScenarioRun;
import dev.ingestbench.contracts.StepStatus;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a scenario report is built from: the run directory, run.json, the steps and the results. */
record ScenarioRunData(
    Path dir, ScenarioRun run, List<StepStatus> steps, List<ResultRecord> results) {

  /** Every result of step {@code s}, by metric. */
  Map<String, Double> metrics(StepStatus s) {
    Map<String, Double> m = new LinkedHashMap<>();
    results.stream()
        .filter(r -> r.stage().equals(s.stage()) && r.iteration() == s.iteration())
        .forEach(r -> m.put(r.metric(), r.value()));
    return m;
  }

  boolean onDataflow() {
    return "dataflow".equals(run.target());
  }
}
