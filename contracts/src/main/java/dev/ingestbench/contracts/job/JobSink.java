package dev.ingestbench.contracts.job;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.ingestbench.contracts.FlagValues;

/**
 * Where a local job's rows go: {@code round --sink} and a scenario job's {@code sink}. Both are the
 * project's BigQuery emulator; what differs is the process it runs in.
 */
public enum JobSink {
  /**
   * The BigQuery emulator process a run shares between its jobs: it outlives a killed consumer, and
   * the run reads every job's progress from it.
   */
  EMULATOR("emulator"),
  /**
   * A BigQuery emulator inside the job's own consumer JVM: no process of its own beside the
   * pipeline, and its rows end with that JVM.
   */
  IN_PROCESS("in-process");

  private final String flag;

  JobSink(String flag) {
    this.flag = flag;
  }

  @JsonValue
  public String flag() {
    return flag;
  }

  /** {@code flag}'s value: {@code --sink=value is not known; use one of ...} when it is none. */
  public static JobSink fromFlag(String flag, String value) {
    return FlagValues.parse(flag, value, values(), JobSink::flag);
  }

  /** A scenario file's value. */
  @JsonCreator
  public static JobSink fromYaml(String value) {
    return FlagValues.parseYaml(value, values(), JobSink::flag);
  }
}
