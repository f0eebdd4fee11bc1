package dev.ingestbench.contracts;

import java.util.List;

/**
 * What a result's load would cost on Dataflow ({@code summary.json}'s {@code cost}): per run, per
 * hour at the measured rate and per billion rows, each component with its quantity, unit price and
 * the price's source. Free tiers are components of their own ({@code freeTiers}), never taken off
 * the figures.
 *
 * @param basis how the quantities were reached, e.g. an estimate from this machine's CPU per row
 * @param billingModel Streaming Engine's billing the figures use
 * @param prices the price file's name
 * @param notEstimated the components left out of the figures, each said why in {@code components}
 */
public record RunCost(
    Double usdPerRun,
    Double usdPerHour,
    Double usdPerBillionRows,
    String region,
    String billingModel,
    String basis,
    String prices,
    List<Component> components,
    List<Component> freeTiers,
    List<String> notEstimated) {

  /**
   * One component of the run's cost.
   *
   * @param quantity in {@code unit}s; null when not estimated
   * @param usd quantity × unit price; null when not estimated
   * @param sourceDate the date the price's source states; null when it states none
   * @param note how the quantity was reached, or why it is not estimated
   */
  public record Component(
      String name,
      Double quantity,
      String unit,
      Double unitPriceUsd,
      Double usd,
      String source,
      String sourceDate,
      String note) {}
}
