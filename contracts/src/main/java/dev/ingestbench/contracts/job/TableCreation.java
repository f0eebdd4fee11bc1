package dev.ingestbench.contracts.job;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.ingestbench.contracts.FlagValues;

/** When a job's destination tables are made. */
public enum TableCreation {
  /**
   * As the write reaches each table (Beam's CREATE_IF_NEEDED): its first append fails, Beam calls
   * tables.get and insert and backs off before it tries again, once per table in every worker.
   */
  IF_NEEDED("if-needed"),
  /**
   * Every table before the pipeline starts (tables.insert, under its quota), then written with
   * CREATE_NEVER: what a team does with an infrastructure tool.
   */
  AHEAD("ahead");

  private final String flag;

  TableCreation(String flag) {
    this.flag = flag;
  }

  @JsonValue
  public String flag() {
    return flag;
  }

  public static TableCreation fromFlag(String flag, String value) {
    return FlagValues.parse(flag, value, values(), TableCreation::flag);
  }

  /** A scenario file's value. */
  @JsonCreator
  public static TableCreation fromYaml(String value) {
    return FlagValues.parseYaml(value, values(), TableCreation::flag);
  }
}
