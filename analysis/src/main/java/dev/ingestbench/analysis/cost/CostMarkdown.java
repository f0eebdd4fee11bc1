package dev.ingestbench.analysis.cost;

import static dev.ingestbench.analysis.document.Numbers.f0;
import static dev.ingestbench.analysis.document.Numbers.usd;
import static dev.ingestbench.analysis.document.Numbers.usd0;

import dev.ingestbench.analysis.document.Document;
import dev.ingestbench.analysis.document.Numbers;
import dev.ingestbench.analysis.document.Table;
import dev.ingestbench.analysis.document.Table.Column;
import java.util.Locale;

/** A cost as a report section: a line per component with its quantity, price and source. */
public final class CostMarkdown {
  private CostMarkdown() {}

  /**
   * The section: {@code intro} (what the stretch is, and how its figures were reached), then a line
   * per component, the total, and the free tiers apart.
   */
  public static void write(Document doc, WorkloadCost cost, String intro) {
    Table t =
        Table.of(
            Column.text("Component"),
            Column.number("Quantity"),
            Column.text("Unit"),
            Column.number("Unit price"),
            Column.number("$"),
            Column.text("How"),
            Column.text("Price from"));
    for (CostLine l : cost.lines()) {
      row(t, l);
    }
    t.row("**Total**", "", "", "", "**" + money(cost.usd()) + "**", "", "");
    for (CostLine l : cost.freeTiers()) {
      row(t, l);
    }
    if (!cost.freeTiers().isEmpty()) {
      t.row(
          "Total after the free tiers",
          "",
          "",
          "",
          money(cost.usdAfterFreeTiers()),
          "free tiers are per billing account, once a month: whatever else it runs uses them too",
          "");
    }
    doc.heading(2, "What it costs")
        .paragraph(
            intro
                + " In "
                + cost.region()
                + " at the list prices of "
                + cost.prices()
                + ", without committed-use discounts"
                + (cost.notEstimated().isEmpty()
                    ? "."
                    : "; not in the total: " + String.join(", ", cost.notEstimated()) + "."))
        .table(t);
  }

  /** Whole dollars from $1,000 up, cents below, and four figures below a cent. */
  public static String money(double v) {
    if (v != 0 && Math.abs(v) < 0.01) {
      return (v < 0 ? "-$" : "$") + String.format(Locale.ROOT, "%.4g", Math.abs(v));
    }
    return Math.abs(v) >= 1_000 ? usd0(v) : usd(v);
  }

  private static void row(Table t, CostLine l) {
    if (!l.estimated()) {
      t.row(l.name(), Numbers.MISSING, "", "", "not estimated", l.note(), "");
      return;
    }
    t.row(
        l.name(),
        quantity(l.quantity()),
        l.price().unit().word(),
        "$" + price(l.price().usd()),
        money(l.usd()),
        l.note(),
        l.price().citation());
  }

  private static String quantity(double q) {
    if (Math.abs(q) >= 100) {
      return f0(q);
    }
    return Math.abs(q) >= 0.01 || q == 0
        ? String.format(Locale.ROOT, "%,.4f", q)
        : String.format(Locale.ROOT, "%.4g", q);
  }

  private static String price(double usd) {
    return String.format(Locale.ROOT, "%.6f", usd).replaceAll("0+$", "").replaceAll("\\.$", "");
  }
}
