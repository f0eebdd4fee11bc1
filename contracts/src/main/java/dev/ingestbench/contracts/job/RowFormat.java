package dev.ingestbench.contracts.job;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.ingestbench.contracts.FlagValues;

/** The shapes a message can take as a BigQuery row. */
public enum RowFormat {
  /**
   * Message metadata plus the raw payload in a BigQuery JSON column, as the reference rounds wrote.
   */
  JSON_COLUMN("json-column"),
  /** Message metadata plus every payload field as a typed column. */
  TYPED("typed");

  private final String flag;

  RowFormat(String flag) {
    this.flag = flag;
  }

  @JsonValue
  public String flag() {
    return flag;
  }

  public static RowFormat fromFlag(String value) {
    return FlagValues.parse("--rowFormat", value, values(), RowFormat::flag);
  }

  /** A scenario file's value. */
  @JsonCreator
  public static RowFormat fromYaml(String value) {
    return FlagValues.parseYaml(value, values(), RowFormat::flag);
  }
}
