package dev.ingestbench.contracts.job;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import java.util.Optional;

/**
 * The two Storage Write API semantics a round compares, by the names users pass: {@code round
 * --write-method}, a scenario's {@code write_method}, the consumer's {@code --writeMethod}.
 */
public enum WriteMethod {
  EXACTLY_ONCE("exactly-once", "STORAGE_WRITE_API"),
  AT_LEAST_ONCE("at-least-once", "STORAGE_API_AT_LEAST_ONCE");

  private static final String SPELLINGS =
      "exactly-once (or STORAGE_WRITE_API) or at-least-once (or STORAGE_API_AT_LEAST_ONCE)";

  private final String flag;
  private final String beamName;

  WriteMethod(String flag, String beamName) {
    this.flag = flag;
    this.beamName = beamName;
  }

  @JsonValue
  public String flag() {
    return flag;
  }

  /** The name of Beam's {@code BigQueryIO.Write.Method} that writes this way. */
  public String beamName() {
    return beamName;
  }

  /**
   * Accepts every spelling users meet: the flag's name ({@code at-least-once}), the enum's ({@code
   * AT_LEAST_ONCE}) and Beam's method name ({@code STORAGE_API_AT_LEAST_ONCE}), in any case.
   */
  public static Optional<WriteMethod> find(String value) {
    String normal = value == null ? "" : value.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    for (WriteMethod method : values()) {
      if (method.name().equals(normal) || method.beamName.equals(normal)) {
        return Optional.of(method);
      }
    }
    return Optional.empty();
  }

  /** The consumer's {@code --writeMethod}. */
  public static WriteMethod fromFlag(String value) {
    return find(value)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "--writeMethod=" + value + " is not known; use " + SPELLINGS));
  }

  /** A scenario file's {@code write_method}. */
  @JsonCreator
  public static WriteMethod fromYaml(String value) {
    return find(value)
        .orElseThrow(
            () -> new IllegalArgumentException("'" + value + "' is not known; use " + SPELLINGS));
  }
}
