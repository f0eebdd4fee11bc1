package dev.ingestbench.consumer.local;

import java.util.List;

/**
 * Makes {@code --savepointPath} work on an embedded Flink.
 *
 * <p>Beam 2.70's FlinkRunner passes {@code --savepointPath} to Flink only when it submits to a
 * remote master ({@code FlinkExecutionEnvironments}: the {@code [local]} and {@code [auto]}
 * branches never read it). An embedded job given the flag therefore starts empty, without a word:
 * no keyed state, no timers, no source positions, and the sources resume from what they had
 * acknowledged (Pub/Sub) or committed (Kafka). An embedded Flink does read {@code
 * execution.savepoint.path} from its configuration, which Beam loads from {@code --flinkConfDir};
 * this class gives the lines {@link LocalFlinkConf} writes there.
 */
final class LocalSavepointRestore {
  private LocalSavepointRestore() {}

  /**
   * The configuration lines that restore {@code savepointPath} ({@link LocalFlinkConf} writes
   * them).
   */
  static List<String> lines(String savepointPath, boolean allowNonRestoredState) {
    return List.of(
        "# Beam's FlinkRunner ignores --savepointPath on an embedded Flink.",
        "execution.savepoint.path: " + LocalFlinkConf.quoted(savepointPath),
        "execution.savepoint.ignore-unclaimed-state: " + allowNonRestoredState);
  }
}
