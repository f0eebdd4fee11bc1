package dev.ingestbench.analysis.report;

import static dev.ingestbench.analysis.document.Numbers.count;

import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.analysis.stages.JobVerificationTable;
import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.FaultCount;
import java.util.List;

/**
 * The report's verification: every message accounted for, and every finding that qualifies the
 * count (faults the emulator injected, rows whose content was wrong).
 */
final class RoundVerificationMarkdown {
  /** The consumers' own count's column beside the verification's Lost. */
  private static final String NOT_ACCOUNTED_FOR = "Not accounted for";

  private RoundVerificationMarkdown() {}

  /** Every message accounted for, and every finding that qualifies the count. */
  static void write(Document doc, RoundAnalysis a) {
    ConsumerResult c = a.consumer();
    // A consumer that stopped short of its count (its timeout, its pipeline ended) may have left
    // what it did not account for in its source: then that is not all lost, as the verification's
    // own table (its Lost: what no job wrote nor left) and the round's summary line say.
    boolean verified = JobVerificationTable.recorded(a.results());
    String lost =
        ConsumerResult.notAllLost(a.lost(), a.left(), c.stopReason()) ? NOT_ACCOUNTED_FOR : "Lost";
    Table together = consumersCount(a, lost);
    if (verified) {
      // The round's one stage verified as a scenario's stages are, then what its consumers counted.
      JobVerificationTable.write(doc, a.steps(), a.results());
      doc.paragraph(
              "As the consumers counted them"
                  + (a.jobResults().isEmpty() ? "" : ", all jobs together")
                  + " (written rows include duplicates"
                  + (a.jobs() > 1 ? "; each job reads every published message" : "")
                  + "):")
          .table(together);
    } else {
      doc.heading(2, "Verification").table(together);
    }
    consumersFindings(doc, a, lost, verified);
    faults(doc, a);
    content(doc, a);
    if (a.publishFailures() > 0) {
      doc.paragraph("**" + a.publishFailures() + " publish failures.**");
    }
    if (c.foreignRows() > 0) {
      doc.paragraph(
          count(c.foreignRows())
              + " row(s) or dead letter(s) carried an event index outside the "
              + count(a.published())
              + " published (foreign: left over from another run, or published by someone else); they are not"
              + " counted as written or accounted for.");
    }
    if (c.unindexedRows() > 0) {
      doc.paragraph(
          count(c.unindexedRows())
              + " row(s) carried no readable event index and could not be checked.");
    }
    a.emulator().ifPresent(e -> doc.append(UnfinishedStreams.markdown(e)));
  }

  /** What the consumers counted themselves, all jobs together. */
  private static Table consumersCount(RoundAnalysis a, String lost) {
    ConsumerResult c = a.consumer();
    return Table.of(
            Column.number("Published"),
            Column.number("Written"),
            Column.number("Distinct event ids"),
            Column.number("Duplicates"),
            Column.number("Source duplicates"),
            Column.number("Dead-lettered"),
            Column.number(lost))
        .row(
            count(a.published()),
            count(c.rowsWritten()),
            count(c.distinctMessageIds()),
            count(c.duplicates()),
            count(c.sourceDuplicates()),
            count(c.deadLettered()),
            count(a.lost()));
  }

  /**
   * What qualifies the consumers' count: events the source carried twice, a short stop, replays.
   */
  private static void consumersFindings(
      Document doc, RoundAnalysis a, String lost, boolean verified) {
    ConsumerResult c = a.consumer();
    if (c.sourceDuplicates() > 0) {
      doc.paragraph(
          "**The source carried "
              + count(c.sourceDuplicates())
              + " event(s) twice**: a row whose event index was already written under"
              + " another message id (Pub/Sub) or offset (Kafka). A publisher sent the event again (a resend after"
              + " a timeout the server had in fact stored); the pipeline wrote each message once, as exactly-once"
              + " promises, so these are not counted as duplicates. The project's own publishers never resend"
              + " (docs/methodology.md, 'Every event is published once').");
    }
    if (a.lost() > 0 && c.stopReason() != null) {
      // A consumer that accounted for everything has lost none.
      doc.paragraph(
          "The consumer stopped before it had accounted for every message: "
              + RoundMarkdown.stopReason(c)
              + ". **"
              + lost
              + "** counts what it had neither written nor dead-lettered by then, whether it had"
              + " read it or not"
              + (verified ? " (the verification above says what of it was left in the source)" : "")
              + ".");
    }
    if (c.duplicates() > 0) {
      doc.paragraph(
          count(c.duplicates())
              + " duplicate(s): a message written again under the same message id (a replay after a"
              + " restore from a checkpoint, a retried append): the sink's duplicates, which exactly-once must not"
              + " have (docs/dead-letters.md, 'A message that reuses another's event_index').");
    }
  }

  /** The faults asked for, each with how often it fired; one that never fired is a warning. */
  private static void faults(Document doc, RoundAnalysis a) {
    List<FaultCount> faults =
        a.emulator()
            .map(e -> e.faults() == null ? List.<FaultCount>of() : e.faults())
            .orElse(List.of());
    if (faults.isEmpty()) {
      return;
    }
    Table t =
        Table.of(
            Column.text("Fault"),
            Column.text("A fraction of"),
            Column.number("Of those the run had"),
            Column.number("Fired"));
    for (FaultCount f : faults) {
      t.row(
          "`" + f.fault() + "`",
          f.fraction() == null ? "(fires once)" : f.of(),
          count(f.outOf()),
          count(f.fired()));
    }
    doc.paragraph("Faults asked of the BigQuery emulator (all jobs together):").table(t);
    for (FaultCount f : faults) {
      if (f.warning() != null) {
        doc.paragraph("**Warning:** " + f.warning() + ".");
      }
    }
  }

  /** Whether every visible row holds what its event must produce. */
  private static void content(Document doc, RoundAnalysis a) {
    ConsumerResult c = a.consumer();
    if (c.mismatchedRows() > 0) {
      doc.paragraph(
              "**"
                  + count(c.mismatchedRows())
                  + " row(s) do not hold what their event must produce** (every visible row"
                  + " is compared, column by column, with the event its index generates from the publishers' seed). The"
                  + " first:")
          .bullets(c.mismatches() == null ? List.of() : c.mismatches());
    } else if (a.emulator().map(e -> e.contentSeed() != null).orElse(false)) {
      doc.paragraph(
          "Every visible row was compared, column by column, with the event its index generates from the"
              + " publishers' seed: none differs.");
    } else {
      doc.paragraph(
          "The rows' content was not checked (the BigQuery emulator was not given the publishers' seed).");
    }
    routing(doc, c);
  }

  /** Whether every row is in the table its event goes to (dynamic destinations). */
  private static void routing(Document doc, ConsumerResult c) {
    if (c.misroutedRows() > 0) {
      doc.paragraph(
              "**"
                  + count(c.misroutedRows())
                  + " row(s) are in another table than their event goes to** (each row's table is"
                  + " checked against the routing its event index decides). The first:")
          .bullets(c.misroutes() == null ? List.of() : c.misroutes());
    } else if (c.routeCheckedRows() > 0) {
      doc.paragraph(
          count(c.routeCheckedRows())
              + " rows were checked against the table their event goes to ("
              + count(c.destinationTables())
              + " tables, "
              + (c.tableSkew() == null ? "uniform" : c.tableSkew())
              + "): none is in another.");
    } else if (c.destinationTables() > 1) {
      doc.paragraph(
          "The rows' tables were not checked: none of the tables states the job's routing in its"
              + " description (tables made before, by someone else).");
    }
  }
}
