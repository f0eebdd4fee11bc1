package dev.ingestbench.analysis.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.analysis.document.Table.Column;
import java.util.List;
import org.junit.jupiter.api.Test;

class DocumentTest {
  @Test
  void everyBlockIsFollowedByOneBlankLineAndTablesAlignByColumnKind() {
    String md =
        new Document()
            .heading(2, "Result")
            .paragraph("Rows **verified**.")
            .table(
                Table.of(Column.text("Job"), Column.number("Rows"), Column.plain("Note"))
                    .row("a", Numbers.count(1_234_567), "-"))
            .bullets(List.of("one", "two"))
            .details(
                "2 seconds",
                Table.of(Column.text("Second"), Column.number("Rows")).row("12:00:01", "5"))
            .image("cpu", "cpu.svg")
            .markdown();
    assertEquals(
        "## Result\n\n"
            + "Rows **verified**.\n\n"
            + "| Job | Rows | Note |\n|:---|---:|---|\n| a | 1,234,567 | - |\n\n"
            + "- one\n- two\n\n"
            + "<details><summary>2 seconds</summary>\n\n"
            + "| Second | Rows |\n|:---|---:|\n| 12:00:01 | 5 |\n\n</details>\n\n"
            + "![cpu](cpu.svg)\n\n",
        md);
  }

  @Test
  void aRowWithTheWrongNumberOfCellsIsRefused() {
    Table t = Table.of(Column.text("A"), Column.number("B"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> t.row("only one"));
    assertTrue(e.getMessage().contains("1 cells in a table of 2 columns"), e.getMessage());
  }

  @Test
  void aHeadingLevelOutsideOneToFourIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new Document().heading(5, "too deep"));
  }

  @Test
  void numbersHaveSeparatorsFixedDecimalsAndNaNIsNotApplicable() {
    assertEquals("12,346", Numbers.f0(12_345.6));
    assertEquals("12.3", Numbers.f1(12.34));
    assertEquals("0.10", Numbers.f2(0.1));
    assertEquals("12.3%", Numbers.pct(0.1234));
    assertEquals("n/a", Numbers.f0(Double.NaN));
    assertEquals("n/a", Numbers.pct(Double.NaN));
    // A figure divided by nothing is not a number either.
    assertEquals("n/a", Numbers.f0(Double.POSITIVE_INFINITY));
    assertEquals("n/a", Numbers.f2(Double.NEGATIVE_INFINITY));
    assertEquals("n/a", Numbers.usd(Double.POSITIVE_INFINITY));
    assertEquals("n/a", Numbers.pct(Double.POSITIVE_INFINITY));
  }
}
