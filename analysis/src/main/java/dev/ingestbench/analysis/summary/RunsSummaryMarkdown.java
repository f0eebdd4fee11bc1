package dev.ingestbench.analysis.summary;

import static dev.ingestbench.analysis.document.Table.Column.number;
import static dev.ingestbench.analysis.document.Table.Column.text;

import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import java.util.List;
import java.util.Locale;

/** {@value RunsSummary#MARKDOWN}: the rows as one Markdown table, and how to read it. */
final class RunsSummaryMarkdown {
  private RunsSummaryMarkdown() {}

  static String of(List<RunRow> rows) {
    Document doc = new Document().heading(1, "Runs");
    doc.paragraph(
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
            + " docs/cost.md).");
    Table table =
        Table.of(
            text("Run"),
            text("Scenario / stage / job"),
            text("Source → sink"),
            text("Runner"),
            text("Message"),
            text("Write method"),
            number("vCPUs"),
            number("Memory"),
            number("Heap"),
            number("Machine speed"),
            number("Input rows/s"),
            number("Output rows/s (95% CI)"),
            number("Latency p50 / p99"),
            number("Max sustained rows/s"),
            text("Verification"),
            number("Cost per billion rows"));
    for (RunRow r : rows) {
      table.row(
          r.run(),
          r.scenario()
              + " / "
              + r.stage()
              + (r.iteration() > 1 ? " #" + r.iteration() : "")
              + " / "
              + r.job(),
          r.source() + " → " + r.sink(),
          r.runner(),
          r.messageFormat()
              + (r.messageSizeBytes() == null ? "" : ", " + r.messageSizeBytes() + " B"),
          dash(r.writeMethod()),
          r.vcpus() > 0 ? Integer.toString(r.vcpus()) : Numbers.MISSING,
          r.memoryGb() == null
              ? Numbers.MISSING
              : String.format(Locale.ROOT, "%.1f GB", r.memoryGb()),
          dash(r.heap()),
          r.machineOpsPerSecond() == null
              ? Numbers.MISSING
              : Numbers.f0(r.machineOpsPerSecond()) + " ops/s",
          r.inputRowsPerSecond() != null
              ? Numbers.f0(r.inputRowsPerSecond())
              : r.limitedBy() != null ? "probed" : "backlog",
          output(r),
          latency(r),
          maxSustained(r),
          dash(r.verification()),
          r.costUsd() == null ? Numbers.MISSING : Numbers.usd(r.costUsd()));
    }
    return doc.table(table).markdown();
  }

  private static String output(RunRow r) {
    if (r.outputRowsPerSecond() == null) {
      return Numbers.MISSING;
    }
    String mean = Numbers.f0(r.outputRowsPerSecond());
    return r.outputCi95Low() == null || r.outputCi95High() == null
        ? mean
        : mean + " (" + Numbers.f0(r.outputCi95Low()) + "–" + Numbers.f0(r.outputCi95High()) + ")";
  }

  private static String maxSustained(RunRow r) {
    if (r.limitedBy() == null) {
      return Numbers.MISSING;
    }
    return (r.maxSustainableRowsPerSecond() == null
            ? "none"
            : Numbers.f0(r.maxSustainableRowsPerSecond()))
        + " ("
        + r.limitedBy()
        + ")";
  }

  private static String latency(RunRow r) {
    if (r.latencyP50Ms() == null) {
      return Numbers.MISSING;
    }
    return String.format(
        Locale.ROOT,
        "%,d / %,d ms%s",
        r.latencyP50Ms(),
        r.latencyP99Ms(),
        "live".equals(r.latencyBasis()) ? "" : " (incl. backlog)");
  }

  private static String dash(String value) {
    return value == null ? Numbers.MISSING : value;
  }
}
