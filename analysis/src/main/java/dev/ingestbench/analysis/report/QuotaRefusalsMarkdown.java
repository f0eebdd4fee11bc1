package dev.ingestbench.analysis.report;

import static dev.ingestbench.analysis.document.Numbers.count;
import static dev.ingestbench.analysis.document.Numbers.f1;
import static dev.ingestbench.analysis.document.Numbers.f2;

import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.RunFiles;
import java.util.List;

/**
 * The round report's "Quota refusals": which tier of the throughput quota refused appends while it
 * refilled, how many and when, for {@code --quota-mode reject} and {@code two-tier}.
 */
final class QuotaRefusalsMarkdown {
  /** Refusal windows listed per tier; the summary and the emulator's status have them all. */
  static final int LISTED = 10;

  private QuotaRefusalsMarkdown() {}

  static void write(Document doc, RoundAnalysis a) {
    List<RoundSummary.QuotaRefusals> tiers = QuotaRefusalFigures.of(a);
    if (tiers.isEmpty()) {
      return;
    }
    Table summary =
        Table.of(
            Column.text("Tier"),
            Column.text("Quota"),
            Column.number("Refused appends"),
            Column.number("Refused MB"),
            Column.number("Windows refusing"),
            Column.number("First refused, s"),
            Column.number("Last refill, s"));
    Table windows =
        Table.of(
            Column.text("Tier"),
            Column.number("Refused from, s"),
            Column.number("to, s"),
            Column.number("Refilled at, s"),
            Column.number("Appends refused"));
    for (RoundSummary.QuotaRefusals t : tiers) {
      List<RoundSummary.RefusalWindow> w = t.windows();
      summary.row(
          t.tier(),
          f2(t.mbPerSecond()) + " MB/s per " + f1(t.windowSeconds()) + " s",
          count(t.refusedAppends()),
          f1(t.refusedMb()),
          count(t.refusalWindows()),
          w.isEmpty() ? Numbers.MISSING : f1(w.get(0).fromSeconds()),
          w.isEmpty() ? Numbers.MISSING : f1(w.get(w.size() - 1).refilledSeconds()));
      for (RoundSummary.RefusalWindow r : w.subList(0, Math.min(LISTED, w.size()))) {
        windows.row(
            t.tier(),
            f1(r.fromSeconds()),
            f1(r.lastSeconds()),
            f1(r.refilledSeconds()),
            count(r.appends()));
      }
    }
    doc.heading(2, "Quota refusals")
        .paragraph(
            "Appends the BigQuery emulator's throughput quota refused with RESOURCE_EXHAUSTED"
                + " while it refilled (the writer retries each), by tier: `regional` is the"
                + " long-term quota, `cell` the short-term one (docs/bigquery-emulator.md). Times"
                + " are seconds after the consumer started.")
        .table(summary)
        .paragraph(
            "When each tier refused (the first "
                + LISTED
                + " windows of each; `"
                + RunFiles.SUMMARY
                + "` `quota_refusals` and `"
                + RunFiles.BIGQUERY_EMULATOR
                + "` `quota_tiers` have them all):")
        .table(windows);
  }
}
