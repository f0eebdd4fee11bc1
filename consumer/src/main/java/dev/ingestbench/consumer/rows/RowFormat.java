package dev.ingestbench.consumer.rows;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The shapes a message can take as a BigQuery row. */
public enum RowFormat {
  /** Message metadata plus the raw payload in a BigQuery JSON column, as the reference rounds wrote. */
  JSON_COLUMN("json-column"),
  /** Message metadata plus every payload field as a typed column. */
  TYPED("typed");

  private final String flag;

  RowFormat(String flag) {
    this.flag = flag;
  }

  public String flag() {
    return flag;
  }

  public static RowFormat fromFlag(String value) {
    for (RowFormat format : values()) {
      if (format.flag.equalsIgnoreCase(value)) {
        return format;
      }
    }
    throw new IllegalArgumentException(
        "--rowFormat="
            + value
            + " is not known; use one of "
            + Arrays.stream(values()).map(RowFormat::flag).collect(Collectors.joining(", ")));
  }
}
