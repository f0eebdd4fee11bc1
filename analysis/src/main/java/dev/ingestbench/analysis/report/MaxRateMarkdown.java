package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.contracts.MaxRateResult;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.WindowLatency;
import java.util.Locale;

/** The report's section of {@code round --find-max-rate}: the answer, the method, every probe. */
final class MaxRateMarkdown {
  private MaxRateMarkdown() {}

  static Document render(MaxRateResult r) {
    Table t =
        Table.of(
            Column.number("Probe"),
            Column.number("Asked msg/s"),
            Column.number("Published msg/s"),
            Column.number("Written rows/s (95% CI)"),
            Column.number("Backlog at end"),
            Column.number("Latency vs intended p50 / p99 / p99.9 / max ms"),
            Column.number("Publish → visible p99 ms"),
            Column.number("Consumer cores"),
            Column.number("Machine busy"),
            Column.number("Source server cores"),
            Column.text("Verdict"));
    for (MaxRateResult.Probe p : r.probes()) {
      t.row(
          Integer.toString(p.number()),
          Numbers.f0(p.askedPerSecond()),
          Numbers.f0(p.publishedPerSecond()),
          Numbers.f0(p.writtenPerSecond().mean())
              + " ("
              + Numbers.f0(p.writtenPerSecond().ci95Low())
              + "–"
              + Numbers.f0(p.writtenPerSecond().ci95High())
              + ")",
          Numbers.count(p.backlogAtEnd()),
          intended(p.intended()),
          p.published() == null ? "n/a" : Numbers.count(p.published().p99Ms()),
          Numbers.f2(p.consumerCores()),
          String.format(Locale.ROOT, "%.0f%%", 100 * p.machineBusyShare()),
          Numbers.f2(p.sourceCores()),
          p.verdict());
    }
    return new Document()
        .heading(2, "Highest sustained rate")
        .paragraph(
            answer(r)
                + String.format(
                    Locale.ROOT, " Limited by **%s**: %s.", r.limitedBy(), r.limitEvidence()))
        .paragraph(method(r))
        .image("asked, published and written rate per probe", RunFiles.MAX_RATE_CHART)
        .table(t);
  }

  /** The rate it found, with its spread, or that none was sustained. */
  private static String answer(MaxRateResult r) {
    if (r.maxSustainableRowsPerSecond() == null) {
      return String.format(
          Locale.ROOT,
          "**No rate was sustained** in %d probes (the bracket reached: 0 to %s msg/s).",
          r.probes().size(),
          r.bracketNotSustained() == null ? "?" : Numbers.f0(r.bracketNotSustained()));
    }
    MaxRateResult.Rate s = r.sustainedRowsPerSecond();
    return String.format(
        Locale.ROOT,
        "**%s rows/s per job** (%d job(s); written %s rows/s, 95%% CI %s–%s over %d"
            + " one-second samples of %d probe(s) at that rate; %s rows/s per vCPU of %d;"
            + " %s rows per consumer CPU-second)%s.",
        Numbers.f0(r.maxSustainableRowsPerSecond()),
        r.jobs(),
        Numbers.f0(s.mean()),
        Numbers.f0(s.ci95Low()),
        Numbers.f0(s.ci95High()),
        s.samples(),
        r.sustainedProbes(),
        Numbers.f0(r.rowsPerSecondPerVcpu()),
        r.vcpus(),
        r.rowsPerConsumerCpuSecond() == null ? "n/a" : Numbers.f0(r.rowsPerConsumerCpuSecond()),
        r.bracketNotSustained() == null
            ? ""
            : "; " + Numbers.f0(r.bracketNotSustained()) + " msg/s was not sustained");
  }

  /** How the search probes, and what makes a rate sustained. */
  private static String method(MaxRateResult r) {
    return String.format(
        Locale.ROOT,
        "How: the publisher alone first, as fast as it could to a topic nobody reads (%s msg/s:"
            + " no probe asks for more, so a publisher limit is never reported as the"
            + " pipeline's). Then live rates while the consumers run: from 2,000 msg/s, doubled"
            + " while sustained, then bisected between the highest sustained and the lowest"
            + " not sustained to within 5%%, the answer probed again to confirm it. Each probe"
            + " holds its rate %s s to settle, is measured over %s s, then its messages get the"
            + " SLO (%,d ms) to become visible. A rate is sustained when Pub/Sub acknowledged"
            + " and every job wrote at least %.0f%% of it over the window, no more than 1%% of"
            + " the window's messages were still invisible after the SLO, and the p99 of"
            + " visible − intended send time stayed within the SLO. A probe whose backlog"
            + " outgrows what the jobs write in the SLO is cut short. The paced publisher"
            + " schedules every message and sends it at its intended time or, when late, at"
            + " once, so its own delays count as latency (coordinated omission); publish →"
            + " visible is from Pub/Sub's publish time, the pipeline alone. The sections below"
            + " cover the whole run, every probe and the pauses between them.",
        Numbers.f0(r.publisherCapacityMessagesPerSecond()),
        Numbers.f0(r.settleSeconds()),
        Numbers.f0(r.windowSeconds()),
        r.latencySloMs(),
        100 * r.keptUpShare());
  }

  private static String intended(WindowLatency.Percentiles l) {
    return l == null
        ? "n/a"
        : String.format(
            Locale.ROOT, "%,d / %,d / %,d / %,d", l.p50Ms(), l.p99Ms(), l.p999Ms(), l.maxMs());
  }
}
