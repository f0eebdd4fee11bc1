package dev.ingestbench.analysis.cost;

/**
 * One component of a cost: how much of what, at which price, from where.
 *
 * @param name what it is, e.g. "Worker vCPUs"
 * @param quantity how many {@code price.unit()}s; NaN with {@code note} when not estimated
 * @param price the price line it is charged at; null when not estimated
 * @param note how the quantity was reached, or why it is not estimated
 */
public record CostLine(String name, double quantity, Price price, String note) {
  /** The line's dollars: quantity × price; 0 when not estimated. */
  public double usd() {
    return estimated() ? quantity * price.usd() : 0;
  }

  public boolean estimated() {
    return price != null && !Double.isNaN(quantity);
  }

  /** A component with no estimate, and why. */
  public static CostLine notEstimated(String name, String why) {
    return new CostLine(name, Double.NaN, null, why);
  }
}
