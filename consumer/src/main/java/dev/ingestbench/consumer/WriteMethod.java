package dev.ingestbench.consumer;

import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO;

/** The two Storage Write API semantics a round compares, by the names users pass. */
public enum WriteMethod {
  EXACTLY_ONCE("exactly-once", BigQueryIO.Write.Method.STORAGE_WRITE_API),
  AT_LEAST_ONCE("at-least-once", BigQueryIO.Write.Method.STORAGE_API_AT_LEAST_ONCE);

  private final String flag;
  private final BigQueryIO.Write.Method beamMethod;

  WriteMethod(String flag, BigQueryIO.Write.Method beamMethod) {
    this.flag = flag;
    this.beamMethod = beamMethod;
  }

  public String flag() {
    return flag;
  }

  public BigQueryIO.Write.Method beamMethod() {
    return beamMethod;
  }

  /** Accepts the flag's name or Beam's method name (e.g. STORAGE_API_AT_LEAST_ONCE). */
  public static WriteMethod fromFlag(String value) {
    for (WriteMethod method : values()) {
      if (method.beamMethod.name().equalsIgnoreCase(value)) {
        return method;
      }
    }
    return FlagValues.parse("--writeMethod", value, values(), WriteMethod::flag);
  }
}
