package dev.ingestbench.consumer;

import dev.ingestbench.contracts.FlagValues;
import java.util.Locale;

/** Where the consumer's rows go ({@code --sink}). */
public enum SinkKind {
  /**
   * BigQuery on Dataflow; the emulator at {@code --storageWriteEndpoint} when one is given; else a
   * local BigQuery in this JVM.
   */
  AUTO,
  /**
   * A local BigQuery emulator started inside the consumer's JVM (also spelled {@code in-process}).
   */
  LOCAL,
  /**
   * A running BigQuery emulator ({@code ingestbench bigquery-emulator}), shared with other jobs.
   */
  EMULATOR,
  /** The real BigQuery service. */
  BIGQUERY;

  public String flag() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static SinkKind fromFlag(String value) {
    if ("in-process".equalsIgnoreCase(value)) {
      return LOCAL;
    }
    return FlagValues.parse("--sink", value, values(), SinkKind::flag);
  }

  /** True when rows go to a local BigQuery emulator, in this JVM or shared. */
  public boolean isLocal() {
    return this == LOCAL || this == EMULATOR;
  }
}
