package dev.ingestbench.analysis.scenario;

import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.contracts.ResultRecord;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The scenario report's "What it costs": each job's hour in each stage on Dataflow, and a billion
 * rows at that rate, from the result records the run wrote ({@link StageCost}).
 */
final class StageCostSection {
  private StageCostSection() {}

  static void write(ScenarioRunData data, Document doc) {
    Map<String, String[]> rows = new LinkedHashMap<>();
    for (ResultRecord r : data.results()) {
      boolean hour = r.metric().equals("usd_per_hour");
      if (hour || r.metric().equals("usd_per_billion_rows")) {
        String[] row =
            rows.computeIfAbsent(
                r.iteration() + "/" + r.stage() + "/" + r.job(),
                k -> new String[] {r.stage(), r.job(), Numbers.MISSING, Numbers.MISSING});
        row[hour ? 2 : 3] = Numbers.usd(r.value());
      }
    }
    if (rows.isEmpty()) {
      return;
    }
    Table t =
        Table.of(
            Column.text("Stage"),
            Column.text("Job"),
            Column.number("$ an hour at its rate"),
            Column.number("$ per billion rows"));
    rows.values().forEach(t::row);
    doc.heading(2, "What it costs")
        .paragraph(
            "Each job's load in each stage on Dataflow in "
                + StageCost.REGION
                + " at the project's list prices (docs/cost.md): its rows at the CPU per row the"
                + " stage measured"
                + (data.onDataflow()
                    ? " (the job's own vCPU time)"
                    : " on this machine, on n2-highcpu-8 workers fully used (an estimate)")
                + ", what it read and the publishing of it, what it wrote; Streaming Engine's"
                + " compute units and Kafka not estimated. Jobs reading one topic share its"
                + " publishing, which each job's figure counts.")
        .table(t);
  }
}
