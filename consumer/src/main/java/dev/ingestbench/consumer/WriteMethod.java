package dev.ingestbench.consumer;

import java.util.Locale;
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

  /**
   * Accepts every spelling users meet: the flag's name ({@code at-least-once}), the enum's ({@code
   * AT_LEAST_ONCE}) and Beam's method name ({@code STORAGE_API_AT_LEAST_ONCE}), in any case.
   */
  public static WriteMethod fromFlag(String value) {
    String normal = value == null ? "" : value.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    for (WriteMethod method : values()) {
      if (method.name().equals(normal) || method.beamMethod.name().equals(normal)) {
        return method;
      }
    }
    throw new IllegalArgumentException(
        "--writeMethod="
            + value
            + " is not known; use exactly-once (or STORAGE_WRITE_API) or"
            + " at-least-once (or STORAGE_API_AT_LEAST_ONCE)");
  }
}
