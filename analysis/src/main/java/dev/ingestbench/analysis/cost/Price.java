package dev.ingestbench.analysis.cost;

import java.time.LocalDate;

/**
 * One line of a price file.
 *
 * @param sku what is billed, in the project's names ({@link Skus})
 * @param usd the price of one {@code unit}
 * @param freePerMonth units free each month per billing account; 0 when none
 * @param region where it applies; {@code *} for every region
 * @param sourceDate the date the source states; null when it states none
 * @param confirmed false when read from a copy, or when the official page disagrees
 */
public record Price(
    String sku,
    PriceUnit unit,
    double usd,
    double freePerMonth,
    String region,
    String source,
    LocalDate sourceDate,
    LocalDate readDate,
    boolean confirmed) {

  /** Every region's price. */
  public static final String EVERY_REGION = "*";

  /** "the source (its date, read on ...)", as a cost line cites it. */
  public String citation() {
    return source
        + " ("
        + (sourceDate == null ? "undated" : "dated " + sourceDate)
        + ", read "
        + readDate
        + (confirmed ? "" : ", unconfirmed")
        + ")";
  }
}
