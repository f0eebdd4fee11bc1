package dev.ingestbench.consumer;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

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
    for (SinkKind kind : values()) {
      if (kind.flag().equalsIgnoreCase(value)) {
        return kind;
      }
    }
    throw new IllegalArgumentException(
        "--sink=" + value + " is not known; use one of "
            + Arrays.stream(values()).map(SinkKind::flag).collect(Collectors.joining(", ")));
  }
}
