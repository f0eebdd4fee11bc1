package dev.ingestbench.analysis.plan;

import static dev.ingestbench.analysis.document.Numbers.f0;
import static dev.ingestbench.analysis.document.Numbers.f1;
import static dev.ingestbench.analysis.document.Numbers.usd0;

import dev.ingestbench.analysis.cost.CostMarkdown;
import dev.ingestbench.analysis.cost.PlanCost;
import dev.ingestbench.analysis.cost.WorkloadCost;
import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.contracts.job.TableRouting;
import java.util.List;
import java.util.Locale;

/** A {@link CapacityPlan} as Markdown: the numbers, where each comes from, and the warnings. */
public final class PlanMarkdown {
  private PlanMarkdown() {}

  public static String of(CapacityPlan p, WorkloadCost cost) {
    Document doc = new Document();
    doc.heading(1, "Plan").paragraph(request(p.request())).table(numbers(p, cost));
    doc.heading(2, "Where the numbers come from").bullets(sources(p));
    CostMarkdown.write(
        doc,
        cost,
        String.format(
            java.util.Locale.ROOT,
            "A month (%.0f h) of the plan on Dataflow, every worker running every hour.",
            PlanCost.HOURS_PER_MONTH));
    doc.heading(2, "Limits");
    if (p.warnings().isEmpty()) {
      doc.paragraph("No limit is met or near.");
    } else {
      doc.bullets(p.warnings());
    }
    return doc.markdown();
  }

  /** What was asked: the rate, the messages, the rows, the write method, the jobs. */
  private static String request(PlanRequest r) {
    return String.format(
        Locale.ROOT,
        "%,.0f rows/s per job of %,d-byte %s messages from %s, %s rows (%s), %s into %d"
            + " table(s)%s%s, %d job(s) on %s workers.",
        r.rowsPerSecond(),
        r.messageSize(),
        r.messageFormat(),
        r.source(),
        r.rowEncoding(),
        r.rowFormat(),
        r.writeMethod(),
        r.destinationTables(),
        r.destinationTables() == 1 ? "" : skew(r),
        r.connectionPool() ? " with the connection pool" : "",
        r.jobs(),
        r.machineType());
  }

  /** How the rows spread: uniform, or the hottest table's share under a Zipf skew. */
  private static String skew(PlanRequest r) {
    TableRouting routing = new TableRouting(r.destinationTables(), r.tableSkew());
    return r.tableSkew().uniform()
        ? " (uniform)"
        : String.format(
            Locale.ROOT,
            " (%s: the hottest table gets %.1f%% of the rows, %,.0f rows/s)",
            r.tableSkew().flag(),
            routing.share(0) * 100,
            routing.share(0) * r.rowsPerSecond());
  }

  /** The plan's figures per job and for all jobs. */
  private static Table numbers(CapacityPlan p, WorkloadCost cost) {
    PlanRequest r = p.request();
    int j = r.jobs();
    Table t = Table.of(Column.text(""), Column.number("Per job"), Column.number("All jobs"));
    t.row("Rows/s", f0(r.rowsPerSecond()), f0(r.rowsPerSecond() * j));
    t.row(
        String.format(Locale.ROOT, "vCPUs at %.0f%% CPU", r.cpuTarget() * 100),
        f1(p.vcpusPerJob()),
        f1(p.vcpusPerJob() * j));
    t.row(
        "Workers (" + r.machineType() + ")",
        Integer.toString(p.workersPerJob()),
        Integer.toString(p.workersPerJob() * j));
    t.row(
        "Storage Write API MB/s",
        f1(p.writeMbPerSecond() / j),
        String.format(
            Locale.ROOT,
            "%s (%.0f%% of %,.2f MB/s)",
            f1(p.writeMbPerSecond()),
            p.quotaShare() * 100,
            r.quotaMbPerSecond()));
    t.row("Source MB/s delivered", f1(p.sourceMbPerSecond() / j), f1(p.sourceMbPerSecond()));
    boolean range = p.connectionsLow() != p.connectionsHigh();
    t.row(
        "Storage Write API connections (limit " + f0(CapacityPlan.CONNECTION_LIMIT) + ")",
        range
            ? f0(p.connectionsLow() / j) + "–" + f0(p.connectionsHigh() / j)
            : f0(p.connectionsLow() / j),
        range ? f0(p.connectionsLow()) + "–" + f0(p.connectionsHigh()) : f0(p.connectionsLow()));
    t.row(
        "$ per month (" + cost.region() + ", list prices)",
        usd0(cost.usd() / j),
        usd0(cost.usd()) + (cost.notEstimated().isEmpty() ? "" : " (see What it costs)"));
    return t;
  }

  /** Where each figure comes from. */
  private static List<String> sources(CapacityPlan p) {
    return List.of(
        String.format(
            Locale.ROOT,
            "Per-row CPU: %.1f vCPU-µs per row. Measurement: %s. Adjustment: %s.",
            p.perRow().microsPerRow(),
            p.perRow().measurement(),
            p.perRow().adjustment()),
        "vCPUs = rows/s × per-row CPU ÷ the CPU target; workers = vCPUs ÷ the machine's vCPUs,"
            + " rounded up.",
        String.format(
            Locale.ROOT,
            "Storage Write API MB/s = rows/s × (message size + %.0f B of metadata columns a row"
                + " carries, from the published timelines) × jobs; source MB/s = rows/s × message"
                + " size × jobs. The quota is the region's Storage Write API throughput (the"
                + " published investigation read 300 MiB/s from its project;"
                + " --quota-mb-per-second for yours).",
            Planner.rowOverheadBytes(p.request())),
        "Connections: " + p.connectionsBasis() + ".");
  }
}
