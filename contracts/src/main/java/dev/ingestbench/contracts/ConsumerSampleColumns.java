package dev.ingestbench.contracts;

import java.util.List;

/** Columns of {@code consumer_samples.csv}: one row per second of the consumer JVM. */
public final class ConsumerSampleColumns {
  /** The second at whose end the sample was taken; its CPU covers the second before. */
  public static final String EPOCH_SECOND = "epoch_second";

  public static final String CPU_SECONDS = "cpu_seconds";
  public static final String VCPUS = "vcpus";
  public static final String ROWS_VISIBLE = "rows_visible";
  public static final String ACCOUNTED_FOR = "accounted_for";
  public static final String OPEN_APPEND_CLIENTS = "open_append_clients";
  public static final String HEAP_USED_BYTES = "heap_used_bytes";

  /**
   * The embedded Flink's checkpoints completed so far, and how long the last one took (empty on
   * another runner, or before the job's first): whether the pipeline waited on its checkpoints.
   */
  public static final String CHECKPOINTS_COMPLETED = "checkpoints_completed";

  public static final String CHECKPOINT_LAST_MS = "checkpoint_last_ms";

  /**
   * Of {@link #CPU_SECONDS}, what the JVM's JIT compiler threads used (empty where the system does
   * not count CPU per thread): a short run's warm-up, which a long-running worker has behind it.
   */
  public static final String JIT_CPU_SECONDS = "jit_cpu_seconds";

  public static final List<String> ALL =
      List.of(
          EPOCH_SECOND,
          CPU_SECONDS,
          VCPUS,
          ROWS_VISIBLE,
          ACCOUNTED_FOR,
          OPEN_APPEND_CLIENTS,
          HEAP_USED_BYTES,
          CHECKPOINTS_COMPLETED,
          CHECKPOINT_LAST_MS,
          JIT_CPU_SECONDS);

  /**
   * The columns a run of several jobs adds up second by second (vCPUs: the machine's, once); not
   * the checkpoints, which are each job's own.
   */
  public static final List<String> SUMMED =
      List.of(
          CPU_SECONDS,
          VCPUS,
          ROWS_VISIBLE,
          ACCOUNTED_FOR,
          OPEN_APPEND_CLIENTS,
          HEAP_USED_BYTES,
          JIT_CPU_SECONDS);

  private ConsumerSampleColumns() {}
}
