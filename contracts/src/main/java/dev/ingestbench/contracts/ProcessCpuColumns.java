package dev.ingestbench.contracts;

import java.util.List;

/**
 * Columns of {@code processes_cpu.csv}: CPU-seconds per second of every process a round started.
 */
public final class ProcessCpuColumns {
  public static final String EPOCH_SECOND = "epoch_second";
  public static final String PROCESS = "process";
  public static final String CPU_SECONDS = "cpu_seconds";

  /**
   * The process name of the JVM that runs the round or scenario itself: part of the harness, and
   * otherwise counted as other work on the machine.
   */
  public static final String SELF = "ingestbench";

  /**
   * {@link #SELF} from the time it publishes the live messages itself (a round's once its backlog
   * is drained, a scenario's while its stages run): the same process, renamed, never counted twice.
   */
  public static final String SELF_PUBLISHING_LIVE = "ingestbench (publishes live)";

  // The names of the servers and publishers a local round or scenario starts: one set, whichever
  // of them starts a process, so reports and the machine's account read every run alike.

  /** The Pub/Sub emulator (pstest). */
  public static final String PUBSUB_EMULATOR = "emulator";

  /** The Kafka broker. */
  public static final String KAFKA_BROKER = "kafka";

  /** The BigQuery emulator. */
  public static final String BIGQUERY_EMULATOR = "bigquery-emulator";

  /** The publisher of the backlog, which runs before any job starts. */
  public static final String BACKLOG_PUBLISHER = "publisher";

  /**
   * The publisher of live messages in a JVM of its own, as rounds recorded before the run's own JVM
   * published them ({@link #SELF_PUBLISHING_LIVE}).
   */
  public static final String LIVE_PUBLISHER = "live-publisher";

  /** {@link #SELF} from the time it feeds a Pub/Sub run's topics (docs/scenarios.md). */
  public static final String SELF_FEEDING_PUBSUB = "runner (feeds Pub/Sub)";

  /** {@link #SELF} from the time it feeds a Kafka run's topic. */
  public static final String SELF_FEEDING_KAFKA = "runner (feeds Kafka)";

  /** A Flink cluster's JobManager. */
  public static final String FLINK_JOBMANAGER = "flink-jobmanager";

  /** A Flink cluster's TaskManager N is {@code taskmanager-N}: where the pipelines run. */
  public static final String TASKMANAGER = "taskmanager-";

  /**
   * On a Flink cluster, job JOB's consumer JVM is {@code flink-client-JOB}: it only submits the
   * pipeline and watches it.
   */
  public static final String FLINK_CLIENT = "flink-client-";

  public static final List<String> ALL = List.of(EPOCH_SECOND, PROCESS, CPU_SECONDS);

  private ProcessCpuColumns() {}
}
