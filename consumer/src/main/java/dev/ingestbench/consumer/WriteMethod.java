package dev.ingestbench.consumer;

import java.util.Arrays;
import java.util.stream.Collectors;
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

  public static WriteMethod fromFlag(String value) {
    for (WriteMethod method : values()) {
      if (method.flag.equalsIgnoreCase(value) || method.beamMethod.name().equalsIgnoreCase(value)) {
        return method;
      }
    }
    throw new IllegalArgumentException(
        "--writeMethod="
            + value
            + " is not known; use one of "
            + Arrays.stream(values()).map(WriteMethod::flag).collect(Collectors.joining(", ")));
  }
}
