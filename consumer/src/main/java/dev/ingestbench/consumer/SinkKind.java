package dev.ingestbench.consumer;

import java.util.Locale;

/** Where the consumer's rows go ({@code --sink}). */
public enum SinkKind {
  /** BigQuery on Dataflow, the local sink with any in-process runner. */
  AUTO,
  /** The in-process BigQuery sink that records a write timeline and verifies every row. */
  LOCAL,
  /** The real BigQuery service. */
  BIGQUERY;

  public String flag() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static SinkKind fromFlag(String value) {
    return FlagValues.parse("--sink", value, values(), SinkKind::flag);
  }
}
