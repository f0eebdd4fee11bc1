package dev.ingestbench.contracts.job;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.ingestbench.contracts.FlagValues;

/**
 * How the consumer hands rows to BigQueryIO ({@code --rowEncoding}); each ends as the same BigQuery
 * row, at a different CPU cost per row (see the jmh module).
 */
public enum RowEncoding {
  /** TableRow, converted to protobuf by Beam's TableRow-to-proto code ({@code writeTableRows}). */
  TABLEROW("tablerow"),
  /** Beam Row with a schema, converted by Beam's Row-to-proto code ({@code useBeamSchema}). */
  BEAM_ROW("beam-row"),
  /** Generated protobuf classes, sent as they are ({@code writeProtos}). */
  PROTO("proto");

  private final String flag;

  RowEncoding(String flag) {
    this.flag = flag;
  }

  @JsonValue
  public String flag() {
    return flag;
  }

  public static RowEncoding fromFlag(String value) {
    return FlagValues.parse("--rowEncoding", value, values(), RowEncoding::flag);
  }

  /** A scenario file's value. */
  @JsonCreator
  public static RowEncoding fromYaml(String value) {
    return FlagValues.parseYaml(value, values(), RowEncoding::flag);
  }
}
