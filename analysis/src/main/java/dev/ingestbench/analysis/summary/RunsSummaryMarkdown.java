package dev.ingestbench.analysis.summary;

import dev.ingestbench.analysis.document.Numbers;
import java.util.List;
import java.util.Locale;

/** {@value RunsSummary#MARKDOWN}: the rows as one Markdown table, and how to read it. */
final class RunsSummaryMarkdown {
  private RunsSummaryMarkdown() {}

  static String of(List<RunRow> rows) {
    StringBuilder md = new StringBuilder("# Runs\n\n");
    md.append(
        "One row per job and stage (a round is one stage). Input rows/s is the rate messages were"
            + " published at while the jobs ran (\"backlog\": they read a backlog as fast as they"
            + " could; \"probed\": a max-rate search's rates); output rows/s is the steady rate rows became visible, with its 95%"
            + " confidence interval; latency is publish → visible, of live messages where there were"
            + " any. Max sustained: the highest rate a max-rate search found every job keeping up"
            + " with inside its latency SLO, and what limited it (docs/max-rate.md). Verification is"
            + " given in the stage each job was judged in. Machine speed: how fast the machine was"
            + " as the run began (a fixed workload's operations per second, docs/methodology.md):"
            + " rows of different days are read against it, not compared as they are. Cost: what a"
            + " billion rows would cost on Dataflow at the run's load, estimated from this machine's"
            + " CPU per row at list prices (a round's summary.json cost, a stage's job records,"
            + " docs/cost.md).\n\n");
    md.append(
        "| Run | Scenario / stage / job | Source → sink | Runner | Message | Write method | vCPUs |"
            + " Memory | Heap | Machine speed | Input rows/s | Output rows/s (95% CI) | Latency p50 / p99 |"
            + " Max sustained rows/s | Verification | Cost per billion rows |\n");
    md.append(
        "|:---|:---|:---|:---|:---|:---|---:|---:|---:|---:|---:|---:|---:|---:|:---|---:|\n");
    for (RunRow r : rows) {
      md.append("| ")
          .append(r.run())
          .append(" | ")
          .append(r.scenario())
          .append(" / ")
          .append(r.stage())
          .append(r.iteration() > 1 ? " #" + r.iteration() : "")
          .append(" / ")
          .append(r.job())
          .append(" | ")
          .append(r.source())
          .append(" → ")
          .append(r.sink())
          .append(" | ")
          .append(r.runner())
          .append(" | ")
          .append(r.messageFormat())
          .append(r.messageSizeBytes() == null ? "" : ", " + r.messageSizeBytes() + " B")
          .append(" | ")
          .append(dash(r.writeMethod()))
          .append(" | ")
          .append(r.vcpus() > 0 ? Integer.toString(r.vcpus()) : "—")
          .append(" | ")
          .append(r.memoryGb() == null ? "—" : String.format(Locale.ROOT, "%.1f GB", r.memoryGb()))
          .append(" | ")
          .append(dash(r.heap()))
          .append(" | ")
          .append(
              r.machineOpsPerSecond() == null
                  ? "—"
                  : String.format(Locale.ROOT, "%,.0f ops/s", r.machineOpsPerSecond()))
          .append(" | ")
          .append(
              r.inputRowsPerSecond() != null
                  ? number(r.inputRowsPerSecond())
                  : r.limitedBy() != null ? "probed" : "backlog")
          .append(" | ")
          .append(output(r))
          .append(" | ")
          .append(latency(r))
          .append(" | ")
          .append(maxSustained(r))
          .append(" | ")
          .append(dash(r.verification()))
          .append(" | ")
          .append(r.costUsd() == null ? "—" : Numbers.usd(r.costUsd()))
          .append(" |\n");
    }
    return md.toString();
  }

  private static String output(RunRow r) {
    if (r.outputRowsPerSecond() == null) {
      return "—";
    }
    String mean = number(r.outputRowsPerSecond());
    return r.outputCi95Low() == null || r.outputCi95High() == null
        ? mean
        : mean + " (" + number(r.outputCi95Low()) + "–" + number(r.outputCi95High()) + ")";
  }

  private static String maxSustained(RunRow r) {
    if (r.limitedBy() == null) {
      return "—";
    }
    return (r.maxSustainableRowsPerSecond() == null
            ? "none"
            : number(r.maxSustainableRowsPerSecond()))
        + " ("
        + r.limitedBy()
        + ")";
  }

  private static String latency(RunRow r) {
    if (r.latencyP50Ms() == null) {
      return "—";
    }
    return String.format(
        Locale.ROOT,
        "%,d / %,d ms%s",
        r.latencyP50Ms(),
        r.latencyP99Ms(),
        "live".equals(r.latencyBasis()) ? "" : " (incl. backlog)");
  }

  private static String number(double value) {
    return String.format(Locale.ROOT, "%,.0f", value);
  }

  private static String dash(String value) {
    return value == null ? "—" : value;
  }
}
