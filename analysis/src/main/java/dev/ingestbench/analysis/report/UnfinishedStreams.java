package dev.ingestbench.analysis.report;

import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.contracts.EmulatorStatus;
import java.util.List;
import java.util.Locale;

/**
 * Rows a writer appended to BUFFERED or PENDING streams and never made visible (no flush, no
 * commit), from the local BigQuery's stream list: where missing rows stopped. BigQuery would keep
 * them invisible too; what matters is which streams hold them and when those were created (before a
 * restart, for instance).
 */
public final class UnfinishedStreams {
  /** Streams listed in the report; the rest are counted. */
  static final int LISTED = 10;

  private UnfinishedStreams() {}

  /** The streams holding invisible rows, oldest first. */
  static List<EmulatorStatus.Stream> of(EmulatorStatus status) {
    return status.streams() == null
        ? List.of()
        : status.streams().stream().filter(s -> s.appendedRows() > s.visibleRows()).toList();
  }

  /** One sentence for the console, or null when every appended row is visible. */
  public static String sentence(EmulatorStatus status) {
    List<EmulatorStatus.Stream> streams = of(status);
    if (streams.isEmpty()) {
      return null;
    }
    EmulatorStatus.Stream first = streams.get(0);
    return String.format(
        Locale.ROOT,
        "%,d row(s) were appended to %d write stream(s) and never flushed or committed, so they"
            + " are not visible (the first: stream %s of %s, created %s, %,d appended, %,d visible); report.md lists them",
        status.invisibleRows(),
        streams.size(),
        first.name(),
        first.table(),
        first.createdAt(),
        first.appendedRows(),
        first.visibleRows());
  }

  /** A paragraph and a table, or nothing when every appended row is visible. */
  static Document markdown(EmulatorStatus status) {
    Document doc = new Document();
    List<EmulatorStatus.Stream> streams = of(status);
    if (streams.isEmpty()) {
      return doc;
    }
    Table t =
        Table.of(
            Column.text("Stream"),
            Column.text("Table"),
            Column.text("Type"),
            Column.text("Created"),
            Column.number("Appended"),
            Column.number("Visible"),
            Column.text("Finalized"));
    for (EmulatorStatus.Stream s : streams.subList(0, Math.min(LISTED, streams.size()))) {
      t.row(
          s.name(),
          s.table(),
          s.type(),
          s.createdAt(),
          Numbers.count(s.appendedRows()),
          Numbers.count(s.visibleRows()),
          s.finalized() ? "yes" : "no");
    }
    doc.paragraph(
            String.format(
                Locale.ROOT,
                "**%,d row(s) were appended and never made visible**: the writer appended them to"
                    + " these streams and then neither flushed (BUFFERED) nor committed (PENDING)"
                    + " them. BigQuery would not show them either. Rows missing from the"
                    + " verification above stopped here, unless the writer wrote them again"
                    + " elsewhere.",
                status.invisibleRows()))
        .table(t);
    if (streams.size() > LISTED) {
      doc.paragraph(
          String.format(
              Locale.ROOT,
              "and %d more stream(s) (bigquery_emulator.json lists every stream).",
              streams.size() - LISTED));
    }
    return doc;
  }
}
