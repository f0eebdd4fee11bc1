package dev.ingestbench.contracts;

import java.util.List;

/**
 * {@code INGESTBENCH_CHILD_JAVA_OPTS}: JVM options for every process a round starts, e.g. a flight
 * recording of each ({@code -XX:StartFlightRecording=filename=runs/jfr/,settings=profile}: an
 * existing directory, so each JVM writes its own file); the build sets the client compiler alone
 * for the tests. Read here only: the BigQuery emulator, the Kafka broker, the Flink cluster and
 * every pipeline's JVM take it from this class.
 */
public final class ChildJavaOptions {
  public static final String VARIABLE = "INGESTBENCH_CHILD_JAVA_OPTS";

  private ChildJavaOptions() {}

  /** The options the variable holds, split on white space; none when it is unset or blank. */
  public static List<String> fromEnvironment() {
    String options = System.getenv(VARIABLE);
    return options == null || options.isBlank() ? List.of() : List.of(options.trim().split("\\s+"));
  }
}
