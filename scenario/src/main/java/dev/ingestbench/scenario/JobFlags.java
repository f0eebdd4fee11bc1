package dev.ingestbench.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job's settings as the flags of the processes that run it: the consumer's Beam flags, the
 * {@code round} command's flags, and labels for results. Keys the job leaves out are left to each
 * process's own defaults.
 */
public final class JobFlags {
  private JobFlags() {}

  /** The consumer's flags ({@code --writeMethod=...}) for {@code job}. */
  public static List<String> consumer(JobConfig job) {
    List<String> flags = new ArrayList<>();
    add(flags, "--writeMethod=", job.writeMethod());
    add(flags, "--rowFormat=", job.rowFormat());
    add(flags, "--rowEncoding=", job.rowEncoding());
    add(flags, "--destinationTables=", job.destinationTables());
    if (Boolean.TRUE.equals(job.connectionPool())) {
      flags.add("--useStorageApiConnectionPool=true");
    }
    add(flags, "--numStorageWriteApiStreams=", job.streams());
    add(flags, "--storageWriteApiTriggeringFrequencySec=", job.triggeringFrequency());
    return flags;
  }

  /** Dataflow's worker flags for {@code job}: a fixed pool of {@code workers} of {@code machine_type}. */
  public static List<String> dataflowWorkers(JobConfig job) {
    List<String> flags = new ArrayList<>();
    if (job.workers() != null) {
      flags.add("--numWorkers=" + job.workers());
      flags.add("--maxNumWorkers=" + job.workers());
    }
    add(flags, "--workerMachineType=", job.machineType());
    return flags;
  }

  /** The flags of {@code ingestbench round} for {@code job} (each as its own argument). */
  public static List<String> round(JobConfig job) {
    List<String> flags = new ArrayList<>();
    pair(flags, "--write-method", job.writeMethod());
    pair(flags, "--row-format", job.rowFormat());
    pair(flags, "--row-encoding", job.rowEncoding());
    pair(flags, "--destination-tables", job.destinationTables());
    if (Boolean.TRUE.equals(job.connectionPool())) {
      flags.add("--connection-pool");
    }
    pair(flags, "--streams", job.streams());
    pair(flags, "--triggering-frequency", job.triggeringFrequency());
    return flags;
  }

  /**
   * The BigQuery emulator's limit flags ({@code --quota-mb-per-second=X}, ...): the same names in
   * {@code ingestbench bigquery-emulator} and {@code ingestbench round}. None for absent limits.
   */
  public static List<String> limits(Scenario.Limits limits) {
    List<String> flags = new ArrayList<>();
    if (limits != null) {
      add(flags, "--quota-mb-per-second=", limits.quotaMbPerSecond());
      add(flags, "--quota-window-seconds=", limits.quotaWindowSeconds());
      add(flags, "--max-connections=", limits.maxConnections());
      add(flags, "--max-request-bytes=", limits.maxRequestBytes());
    }
    return flags;
  }

  /** Every key the job sets, under the scenario file's names: what results are labelled with. */
  public static Map<String, String> labels(JobConfig job) {
    Map<String, String> labels = new LinkedHashMap<>();
    put(labels, "write_method", job.writeMethod());
    put(labels, "row_format", job.rowFormat());
    put(labels, "row_encoding", job.rowEncoding());
    put(labels, "destination_tables", job.destinationTables());
    put(labels, "connection_pool", job.connectionPool());
    put(labels, "streams", job.streams());
    put(labels, "triggering_frequency", job.triggeringFrequency());
    put(labels, "workers", job.workers());
    put(labels, "machine_type", job.machineType());
    return labels;
  }

  private static void add(List<String> flags, String flag, Object value) {
    if (value != null) {
      flags.add(flag + value);
    }
  }

  private static void pair(List<String> flags, String flag, Object value) {
    if (value != null) {
      flags.add(flag);
      flags.add(String.valueOf(value));
    }
  }

  private static void put(Map<String, String> labels, String key, Object value) {
    if (value != null) {
      labels.put(key, String.valueOf(value));
    }
  }
}
