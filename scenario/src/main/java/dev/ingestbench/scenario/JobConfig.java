package dev.ingestbench.scenario;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.ingestbench.contracts.job.JobSink;
import dev.ingestbench.contracts.job.RowEncoding;
import dev.ingestbench.contracts.job.RowFormat;
import dev.ingestbench.contracts.job.TableCreation;
import dev.ingestbench.contracts.job.TableSkew;
import dev.ingestbench.contracts.job.WriteMethod;

/**
 * One consumer job: the consumer's flags under their {@code round} names, typed as the consumer
 * reads them (a value is checked as the file is read, and accepts the spellings {@code round}'s
 * flags accept), plus what Dataflow needs ({@code workers}, {@code machine_type}). Absent keys come
 * from {@code job_defaults}, then from the consumer's own defaults.
 *
 * @param sink where a local job's rows go: the run's BigQuery emulator process (null: the default)
 *     or one inside its own consumer JVM
 */
public record JobConfig(
    @JsonProperty("write_method") WriteMethod writeMethod,
    @JsonProperty("row_format") RowFormat rowFormat,
    @JsonProperty("row_encoding") RowEncoding rowEncoding,
    @JsonProperty("destination_tables") Integer destinationTables,
    @JsonProperty("table_skew") TableSkew tableSkew,
    @JsonProperty("create_tables") TableCreation createTables,
    @JsonProperty("connection_pool") Boolean connectionPool,
    @JsonProperty("max_connection_pool_connections") Integer maxConnectionPoolConnections,
    Integer streams,
    @JsonProperty("triggering_frequency") Integer triggeringFrequency,
    Integer workers,
    @JsonProperty("machine_type") String machineType,
    JobSink sink) {

  /** Where the job's rows go, its default resolved. */
  public JobSink resolvedSink() {
    return sink == null ? JobSink.EMULATOR : sink;
  }

  /** {@code job}'s keys over {@code defaults}' (either may be null). */
  static JobConfig merge(JobConfig defaults, JobConfig job) {
    if (defaults == null) {
      return job == null
          ? new JobConfig(
              null, null, null, null, null, null, null, null, null, null, null, null, null)
          : job;
    }
    if (job == null) {
      return defaults;
    }
    return new JobConfig(
        first(job.writeMethod, defaults.writeMethod),
        first(job.rowFormat, defaults.rowFormat),
        first(job.rowEncoding, defaults.rowEncoding),
        first(job.destinationTables, defaults.destinationTables),
        first(job.tableSkew, defaults.tableSkew),
        first(job.createTables, defaults.createTables),
        first(job.connectionPool, defaults.connectionPool),
        first(job.maxConnectionPoolConnections, defaults.maxConnectionPoolConnections),
        first(job.streams, defaults.streams),
        first(job.triggeringFrequency, defaults.triggeringFrequency),
        first(job.workers, defaults.workers),
        first(job.machineType, defaults.machineType),
        first(job.sink, defaults.sink));
  }

  private static <T> T first(T value, T fallback) {
    return value != null ? value : fallback;
  }
}
