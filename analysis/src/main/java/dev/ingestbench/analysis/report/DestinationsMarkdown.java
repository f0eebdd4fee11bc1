package dev.ingestbench.analysis.report;

import static dev.ingestbench.analysis.document.Numbers.count;
import static dev.ingestbench.analysis.document.Numbers.f1;

import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.contracts.RoundSummary;
import dev.ingestbench.contracts.RunFiles;
import java.util.Locale;

/** The round report's "Destinations": what writing many tables cost, for a round of several. */
final class DestinationsMarkdown {
  private DestinationsMarkdown() {}

  static void write(Document doc, RoundAnalysis a) {
    DestinationFigures.of(a).ifPresent(d -> write(doc, d, a.consumer().tableSkew()));
  }

  private static void write(Document doc, RoundSummary.Destinations d, String skew) {
    Table t = Table.of(Column.text(""), Column.number("Value"));
    t.row("Tables (" + (skew == null ? "uniform" : skew) + ")", count(d.tables()));
    t.row("Tables written", count(d.tablesWritten()));
    t.row(
        "Made",
        d.tableCreation() == null
            ? "not recorded"
            : d.tableCreation().equals("ahead")
                ? "ahead, before the pipeline"
                : "as the write reached each (CREATE_IF_NEEDED)");
    if (d.tablesInsertFromSeconds() != null && d.tablesInsertToSeconds() != null) {
      t.row(
          "tables.insert calls, s after the consumer started: first – last",
          f1(d.tablesInsertFromSeconds()) + " – " + f1(d.tablesInsertToSeconds()));
    }
    t.row("First row, s after the consumer started", orDash(d.firstRowSeconds()));
    t.row("Every table's first row, s after it started", orDash(d.allTablesSeconds()));
    t.row(
        "Rows per table: fewest / median / most",
        count(d.rowsPerTableMin())
            + " / "
            + count(d.rowsPerTableMedian())
            + " / "
            + count(d.rowsPerTableMax()));
    t.row(
        "Busiest table's share (the skew's)",
        String.format(
            Locale.ROOT,
            "%.1f%% (%.1f%%)",
            d.hottestShare() * 100,
            d.expectedHottestShare() * 100));
    t.row(
        "tables.get calls (refused by the quota; p99 ms)",
        count(d.tablesGetCalls())
            + " ("
            + count(d.tablesGetThrottled())
            + "; "
            + orDash(d.tablesGetP99Ms())
            + ")");
    t.row(
        "tables.insert calls (refused; p99 ms)",
        count(d.tablesInsertCalls())
            + " ("
            + count(d.tablesInsertThrottled())
            + "; "
            + orDash(d.tablesInsertP99Ms())
            + ")");
    t.row(
        "CreateWriteStream calls (slowed; p99 ms)",
        count(d.createWriteStreamCalls())
            + " ("
            + count(d.createWriteStreamSlowed())
            + "; "
            + orDash(d.createWriteStreamP99Ms())
            + ")");
    doc.heading(2, "Destinations")
        .paragraph(
            "Each table's first and last append and its rows are in `"
                + RunFiles.TABLES
                + "`; the calls are the BigQuery emulator's counts, under its tables quota and"
                + " CreateWriteStream slowdown (docs/destinations.md).")
        .table(t);
  }

  /** One decimal, or a dash where there is no figure. */
  private static String orDash(Double v) {
    return v == null ? Numbers.MISSING : f1(v);
  }
}
