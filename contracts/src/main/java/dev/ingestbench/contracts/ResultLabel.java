package dev.ingestbench.contracts;

import java.util.Locale;

/**
 * The labels of a result record ({@code results.jsonl}, the results table's {@code labels}
 * columns): every setting of a job as it ran, the run's scale and machine, the region a cost is
 * priced in, and what ended a max-rate search at which latency objective. Declared once here: the
 * runners write these keys, the reports and the results table read them, so a label one writes is
 * never one the other drops.
 */
public enum ResultLabel {
  WRITE_METHOD,
  ROW_FORMAT,
  ROW_ENCODING,
  DESTINATION_TABLES,
  TABLE_SKEW,
  CREATE_TABLES,
  CONNECTION_POOL,
  MAX_CONNECTION_POOL_CONNECTIONS,
  STREAMS,
  TRIGGERING_FREQUENCY,
  WORKERS,
  MACHINE_TYPE,
  MESSAGE_SIZE,
  MESSAGE_FORMAT,
  SOURCE,
  SINK,
  RUNNER,
  SCALE,
  MACHINE,
  REGION,
  LIMITED_BY,
  LATENCY_SLO_MS;

  /** The key as records carry it: {@code write_method}. */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }
}
