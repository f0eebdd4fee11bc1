package dev.ingestbench.contracts;

import java.util.Locale;

/**
 * One fault a run asked the BigQuery emulator for, and how often it fired: a fault that never fired
 * tested nothing, and a user must be told so rather than read a clean verification as proof.
 *
 * @param fault the fault as given, e.g. {@code discard=0.05}
 * @param fraction the fraction of {@code of} it hits; null for a drain (it fires once)
 * @param of what the fraction is of, e.g. "appends that reached the store", "FlushRows calls"
 * @param outOf how many of those the run had
 * @param fired how many times it fired
 */
public record FaultCount(String fault, Double fraction, String of, long outOf, long fired) {

  /** E.g. "discard=0.05: fired 123 times in 2,460 appends that reached the store". */
  public String describe() {
    return String.format(Locale.ROOT, "%s: fired %,d time(s) in %,d %s", fault, fired, outOf, of);
  }

  /** The warning for a fault that never fired; null when it fired. */
  public String warning() {
    if (fired > 0) {
      return null;
    }
    return String.format(
        Locale.ROOT,
        "fault %s never fired (%,d %s%s): the run tested nothing with it; raise the fraction or"
            + " run longer",
        fault,
        outOf,
        of,
        fraction == null
            ? ""
            : String.format(Locale.ROOT, "; it fires once in every %,.0f", 1 / fraction));
  }
}
