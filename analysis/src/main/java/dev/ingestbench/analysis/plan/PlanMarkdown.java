package dev.ingestbench.analysis.plan;

import java.util.Locale;

/** A {@link CapacityPlan} as Markdown: the numbers, where each comes from, and the warnings. */
public final class PlanMarkdown {
  private PlanMarkdown() {}

  public static String of(CapacityPlan p) {
    PlanRequest r = p.request();
    int j = r.jobs();
    StringBuilder md = new StringBuilder("# Plan\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "%,.0f rows/s per job of %,d-byte %s messages from %s, %s rows (%s), %s into %d"
                + " table(s)%s, %d job(s) on %s workers.\n\n",
            r.rowsPerSecond(),
            r.messageSize(),
            r.messageFormat(),
            r.source(),
            r.rowEncoding(),
            r.rowFormat(),
            r.writeMethod(),
            r.destinationTables(),
            r.connectionPool() ? " with the connection pool" : "",
            j,
            r.machineType()));
    md.append("| | Per job | All jobs |\n|:---|---:|---:|\n");
    row(md, "Rows/s", num(r.rowsPerSecond()), num(r.rowsPerSecond() * j));
    row(
        md,
        String.format(Locale.ROOT, "vCPUs at %.0f%% CPU", r.cpuTarget() * 100),
        dec(p.vcpusPerJob()),
        dec(p.vcpusPerJob() * j));
    row(
        md,
        "Workers (" + r.machineType() + ")",
        Integer.toString(p.workersPerJob()),
        Integer.toString(p.workersPerJob() * j));
    row(
        md,
        "Storage Write API MB/s",
        dec(p.writeMbPerSecond() / j),
        String.format(
            Locale.ROOT,
            "%s (%.0f%% of %,.2f MB/s)",
            dec(p.writeMbPerSecond()),
            p.quotaShare() * 100,
            r.quotaMbPerSecond()));
    row(md, "Source MB/s delivered", dec(p.sourceMbPerSecond() / j), dec(p.sourceMbPerSecond()));
    String connections =
        p.connectionsLow() == p.connectionsHigh()
            ? num(p.connectionsLow())
            : num(p.connectionsLow()) + "–" + num(p.connectionsHigh());
    row(
        md,
        "Storage Write API connections (limit " + num(CapacityPlan.CONNECTION_LIMIT) + ")",
        p.connectionsLow() == p.connectionsHigh()
            ? num(p.connectionsLow() / j)
            : num(p.connectionsLow() / j) + "–" + num(p.connectionsHigh() / j),
        connections);
    row(md, "$ per month", "—", "—");
    md.append("\n## Where the numbers come from\n\n");
    md.append(
        String.format(
            Locale.ROOT,
            "- Per-row CPU: %.1f vCPU-µs per row. Measurement: %s. Adjustment: %s.\n",
            p.perRow().microsPerRow(),
            p.perRow().measurement(),
            p.perRow().adjustment()));
    md.append(
        "- vCPUs = rows/s × per-row CPU ÷ the CPU target; workers = vCPUs ÷ the machine's vCPUs,"
            + " rounded up.\n");
    md.append(
        String.format(
            Locale.ROOT,
            "- Storage Write API MB/s = rows/s × (message size + %.0f B of metadata columns a row"
                + " carries, from the published timelines) × jobs; source MB/s = rows/s × message"
                + " size × jobs. The quota is the region's Storage Write API throughput (the"
                + " published investigation read 300 MiB/s from its project;"
                + " --quota-mb-per-second for yours).\n",
            Planner.rowOverheadBytes(r)));
    md.append("- Connections: ").append(p.connectionsBasis()).append(".\n");
    md.append("- $ per month: ").append(p.cost()).append(".\n");
    md.append("\n## Limits\n\n");
    if (p.warnings().isEmpty()) {
      md.append("No limit is met or near.\n");
    } else {
      p.warnings().forEach(w -> md.append("- ").append(w).append('\n'));
    }
    return md.toString();
  }

  private static void row(StringBuilder md, String what, String perJob, String all) {
    md.append("| ")
        .append(what)
        .append(" | ")
        .append(perJob)
        .append(" | ")
        .append(all)
        .append(" |\n");
  }

  private static String num(double v) {
    return String.format(Locale.ROOT, "%,.0f", v);
  }

  private static String dec(double v) {
    return String.format(Locale.ROOT, "%,.1f", v);
  }
}
