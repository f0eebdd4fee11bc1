package dev.ingestbench.harness.spec;

import dev.ingestbench.consumer.ConsumerConfig;
import dev.ingestbench.consumer.SinkKind;
import dev.ingestbench.contracts.job.JobSink;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A job's result labels: every setting as its consumer runs it, the consumer's defaults resolved
 * (by {@link ConsumerConfig}, the consumer's own reading of its flags), on every target. The one
 * place a label key is written: a round, a local scenario and a Dataflow scenario all label their
 * results here, so {@code summary} compares like with like and a job that inherits a default says
 * which.
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
    labels.put("write_method", consumer.writeMethod().flag());
    labels.put("row_format", consumer.rowFormat().flag());
    labels.put("row_encoding", consumer.rowEncoding().flag());
    labels.put("destination_tables", Integer.toString(consumer.target().tables()));
    labels.put("table_skew", consumer.target().routing().skew().flag());
    labels.put("create_tables", consumer.target().creation().flag());
    labels.put("connection_pool", Boolean.toString(consumer.connectionPool()));
    if (consumer.connectionPool()) {
      labels.put(
          "max_connection_pool_connections", Integer.toString(consumer.maxPoolConnections()));
    }
    labels.put("streams", Integer.toString(consumer.numStorageWriteApiStreams()));
    if (consumer.triggeringFrequencySec() != null) {
      labels.put("triggering_frequency", Integer.toString(consumer.triggeringFrequencySec()));
    }
    if (workers != null) {
      labels.put("workers", workers.toString());
    }
    if (machineType != null) {
      labels.put("machine_type", machineType);
    }
    labels.put("message_size", Integer.toString(messageSize));
    labels.put("source", consumer.source().flag());
    labels.put("sink", sink(consumer.sink()));
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
