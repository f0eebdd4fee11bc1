package dev.ingestbench.harness.spec;

import static dev.ingestbench.harness.spec.SettingFlag.CONNECTION_POOL;
import static dev.ingestbench.harness.spec.SettingFlag.CREATE_TABLES;
import static dev.ingestbench.harness.spec.SettingFlag.DESTINATION_TABLES;
import static dev.ingestbench.harness.spec.SettingFlag.MAX_POOL_CONNECTIONS;
import static dev.ingestbench.harness.spec.SettingFlag.ROW_ENCODING;
import static dev.ingestbench.harness.spec.SettingFlag.ROW_FORMAT;
import static dev.ingestbench.harness.spec.SettingFlag.STREAMS;
import static dev.ingestbench.harness.spec.SettingFlag.TABLE_SKEW;
import static dev.ingestbench.harness.spec.SettingFlag.TRIGGERING_FREQUENCY;
import static dev.ingestbench.harness.spec.SettingFlag.WRITE_METHOD;

import dev.ingestbench.contracts.job.RowEncoding;
import dev.ingestbench.contracts.job.RowFormat;
import dev.ingestbench.contracts.job.TableCreation;
import dev.ingestbench.contracts.job.TableSkew;
import dev.ingestbench.contracts.job.WriteMethod;
import dev.ingestbench.scenario.JobConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * How one job writes, typed: what a round's flags, a scenario's job keys and the consumer's Beam
 * flags all say, with the consumer's defaults filled in. {@link #consumerFlags} is the one place
 * these settings become consumer flags, for rounds, staged runs and Dataflow launches alike.
 *
 * @param tableSkew how rows spread over the destination tables
 * @param tableCreation when the destination tables are made
 * @param maxPoolConnections Beam's {@code --maxConnectionPoolConnections}; null leaves Beam's
 *     default (20)
 * @param streams Beam's {@code --numStorageWriteApiStreams}; null leaves Beam's default
 * @param triggeringFrequency seconds between exactly-once flushes; null leaves the consumer's
 *     default
 */
public record JobSettings(
    WriteMethod writeMethod,
    RowFormat rowFormat,
    RowEncoding rowEncoding,
    int destinationTables,
    TableSkew tableSkew,
    TableCreation tableCreation,
    boolean connectionPool,
    Integer maxPoolConnections,
    Integer streams,
    Integer triggeringFrequency) {

  /** The consumer's own defaults. */
  public static final JobSettings DEFAULTS =
      new JobSettings(
          WriteMethod.EXACTLY_ONCE,
          RowFormat.JSON_COLUMN,
          RowEncoding.TABLEROW,
          1,
          TableSkew.UNIFORM,
          TableCreation.IF_NEEDED,
          false,
          null,
          null,
          null);

  /** A scenario job's keys (typed and checked as the file was read) over {@link #DEFAULTS}. */
  public static JobSettings of(JobConfig job) {
    return new JobSettings(
        job.writeMethod() == null ? DEFAULTS.writeMethod : job.writeMethod(),
        job.rowFormat() == null ? DEFAULTS.rowFormat : job.rowFormat(),
        job.rowEncoding() == null ? DEFAULTS.rowEncoding : job.rowEncoding(),
        job.destinationTables() == null ? DEFAULTS.destinationTables : job.destinationTables(),
        job.tableSkew() == null ? DEFAULTS.tableSkew : job.tableSkew(),
        job.createTables() == null ? DEFAULTS.tableCreation : job.createTables(),
        Boolean.TRUE.equals(job.connectionPool()),
        job.maxConnectionPoolConnections(),
        job.streams(),
        job.triggeringFrequency());
  }

  /** The consumer's Beam flags for these settings. */
  public List<String> consumerFlags() {
    List<String> flags =
        new ArrayList<>(
            List.of(
                WRITE_METHOD.child(writeMethod.flag()),
                ROW_FORMAT.child(rowFormat.flag()),
                ROW_ENCODING.child(rowEncoding.flag()),
                DESTINATION_TABLES.child(destinationTables)));
    if (!tableSkew.uniform()) {
      flags.add(TABLE_SKEW.child(tableSkew.flag()));
    }
    if (tableCreation != DEFAULTS.tableCreation) {
      flags.add(CREATE_TABLES.child(tableCreation.flag()));
    }
    if (connectionPool) {
      flags.add(CONNECTION_POOL.child(true));
    }
    if (maxPoolConnections != null) {
      flags.add(MAX_POOL_CONNECTIONS.child(maxPoolConnections));
    }
    if (streams != null) {
      flags.add(STREAMS.child(streams));
    }
    if (triggeringFrequency != null) {
      flags.add(TRIGGERING_FREQUENCY.child(triggeringFrequency));
    }
    return flags;
  }
}
