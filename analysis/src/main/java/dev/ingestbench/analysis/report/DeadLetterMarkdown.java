package dev.ingestbench.analysis.report;

import static dev.ingestbench.analysis.document.Numbers.count;

import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import dev.ingestbench.contracts.ConsumerResult;
import dev.ingestbench.contracts.DeadLetterSample;
import java.util.List;
import java.util.Locale;

/** The round report's "Dead letters": the first ones as the dead-letter table holds them. */
final class DeadLetterMarkdown {
  private DeadLetterMarkdown() {}

  /**
   * The first dead letters as the dead-letter table holds them: stage, reason and the payload's
   * first bytes (printable ASCII as is, anything else as \\xNN, so an encoding problem is visible).
   */
  static void write(Document doc, ConsumerResult c) {
    if (c.deadLetterWriteFailures() > 0) {
      doc.paragraph(
          "**"
              + count(c.deadLetterWriteFailures())
              + " dead letter(s) could not be written to the dead-letter table**: those"
              + " messages are neither written nor kept (the consumer's log has each reason).");
    }
    List<DeadLetterSample> samples =
        c.deadLetterSamples() == null ? List.of() : c.deadLetterSamples();
    List<String> errors = c.deadLetterErrors() == null ? List.of() : c.deadLetterErrors();
    if (samples.isEmpty() && errors.isEmpty()) {
      return;
    }
    doc.heading(2, "Dead letters");
    if (samples.isEmpty()) {
      doc.paragraph("First reasons recorded in the dead-letter table:")
          .bullets(errors.stream().map(e -> e.replace('\n', ' ')).toList());
      return;
    }
    Table t =
        Table.of(
            Column.plain("Stage"),
            Column.number("Event index"),
            Column.number("Bytes"),
            Column.plain("Reason"),
            Column.plain("Payload starts"));
    for (DeadLetterSample d : samples) {
      t.row(
          d.stage(),
          d.eventIndex() == null ? "-" : d.eventIndex().toString(),
          d.payloadBytes() == null ? "-" : count(d.payloadBytes()),
          String.valueOf(d.error()).replace('\n', ' ').replace("|", "\\|"),
          "`" + preview(d.payload(), 32) + "`");
    }
    doc.paragraph(
            count(c.deadLettered())
                + " dead-lettered; the first "
                + samples.size()
                + " as the dead-letter table holds them (its `payload` column is the message byte for byte):")
        .table(t);
  }

  private static String preview(byte[] payload, int max) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < Math.min(payload.length, max); i++) {
      int b = payload[i] & 0xFF;
      text.append(
          b >= 0x20 && b < 0x7F && b != '`' && b != '|' && b != '\\'
              ? String.valueOf((char) b)
              : String.format(Locale.ROOT, "\\x%02X", b));
    }
    return payload.length > max ? text + "..." : text.toString();
  }
}
