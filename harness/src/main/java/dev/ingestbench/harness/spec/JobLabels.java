package dev.ingestbench.harness.spec;

import static dev.ingestbench.contracts.ResultLabel.CONNECTION_POOL;
import static dev.ingestbench.contracts.ResultLabel.CREATE_TABLES;
import static dev.ingestbench.contracts.ResultLabel.DESTINATION_TABLES;
import static dev.ingestbench.contracts.ResultLabel.MACHINE;
import static dev.ingestbench.contracts.ResultLabel.MACHINE_TYPE;
import static dev.ingestbench.contracts.ResultLabel.MAX_CONNECTION_POOL_CONNECTIONS;
import static dev.ingestbench.contracts.ResultLabel.MESSAGE_FORMAT;
import static dev.ingestbench.contracts.ResultLabel.MESSAGE_SIZE;
import static dev.ingestbench.contracts.ResultLabel.ROW_ENCODING;
import static dev.ingestbench.contracts.ResultLabel.ROW_FORMAT;
import static dev.ingestbench.contracts.ResultLabel.RUNNER;
import static dev.ingestbench.contracts.ResultLabel.SCALE;
import static dev.ingestbench.contracts.ResultLabel.SINK;
import static dev.ingestbench.contracts.ResultLabel.SOURCE;
import static dev.ingestbench.contracts.ResultLabel.STREAMS;
import static dev.ingestbench.contracts.ResultLabel.TABLE_SKEW;
import static dev.ingestbench.contracts.ResultLabel.TRIGGERING_FREQUENCY;
import static dev.ingestbench.contracts.ResultLabel.WORKERS;
import static dev.ingestbench.contracts.ResultLabel.WRITE_METHOD;

import dev.ingestbench.consumer.ConsumerConfig;
import dev.ingestbench.consumer.SinkKind;
import dev.ingestbench.contracts.job.JobSink;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A job's result labels: every setting as its consumer runs it, the consumer's defaults resolved
 * (by {@link ConsumerConfig}, the consumer's own reading of its flags), on every target, and the
 * run's scale and machine: a round, a local scenario and a Dataflow scenario all label their jobs'
 * results here, so {@code summary} compares like with like and a job that inherits a default says
 * which. The keys are {@link dev.ingestbench.contracts.ResultLabel}s.
 */
public final class JobLabels {
  private JobLabels() {}

  /**
   * @param workers a Dataflow job's fixed worker count; null where the target has none
   * @param machineType a Dataflow job's worker machine type; null where the target has none
   */
  public static Map<String, String> of(
      ConsumerConfig consumer, int messageSize, Integer workers, String machineType) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(WRITE_METHOD.key(), consumer.writeMethod().flag());
    labels.put(ROW_FORMAT.key(), consumer.rowFormat().flag());
    labels.put(ROW_ENCODING.key(), consumer.rowEncoding().flag());
    labels.put(DESTINATION_TABLES.key(), Integer.toString(consumer.target().tables()));
    labels.put(TABLE_SKEW.key(), consumer.target().routing().skew().flag());
    labels.put(CREATE_TABLES.key(), consumer.target().creation().flag());
    labels.put(CONNECTION_POOL.key(), Boolean.toString(consumer.connectionPool()));
    if (consumer.connectionPool()) {
      labels.put(
          MAX_CONNECTION_POOL_CONNECTIONS.key(), Integer.toString(consumer.maxPoolConnections()));
    }
    labels.put(STREAMS.key(), Integer.toString(consumer.numStorageWriteApiStreams()));
    if (consumer.triggeringFrequencySec() != null) {
      labels.put(TRIGGERING_FREQUENCY.key(), Integer.toString(consumer.triggeringFrequencySec()));
    }
    if (workers != null) {
      labels.put(WORKERS.key(), workers.toString());
    }
    if (machineType != null) {
      labels.put(MACHINE_TYPE.key(), machineType);
    }
    labels.put(MESSAGE_SIZE.key(), Integer.toString(messageSize));
    labels.put(MESSAGE_FORMAT.key(), consumer.messageFormat().flag());
    labels.put(SOURCE.key(), consumer.source().flag());
    labels.put(SINK.key(), sink(consumer.sink()));
    labels.put(RUNNER.key(), consumer.runnerName());
    return labels;
  }

  /** The labels of the run every record belongs to: its {@code --scale} and machine. */
  public static Map<String, String> run(double scale, String machine) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put(SCALE.key(), Double.toString(scale));
    labels.put(MACHINE.key(), machine);
    return labels;
  }

  /** The sink as {@code round --sink} and a scenario's {@code sink} spell it. */
  private static String sink(SinkKind sink) {
    return switch (sink) {
      case LOCAL -> JobSink.IN_PROCESS.flag();
      case EMULATOR -> JobSink.EMULATOR.flag();
      default -> sink.flag();
    };
  }
}
