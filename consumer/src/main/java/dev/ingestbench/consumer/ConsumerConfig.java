package dev.ingestbench.consumer;

import dev.ingestbench.consumer.rows.RowEncoding;
import dev.ingestbench.consumer.rows.RowFormat;
import dev.ingestbench.consumer.sink.TableTarget;
import dev.ingestbench.pubsub.PubsubPaths;
import org.apache.beam.runners.dataflow.options.DataflowPipelineOptions;
import org.apache.beam.sdk.options.ExperimentalOptions;

/**
 * The consumer's flags checked once, at launch: invalid values and combinations fail here with a
 * message naming the flags and the fix, never on a worker hours later.
 */
public record ConsumerConfig(
    RowFormat rowFormat,
    RowEncoding rowEncoding,
    WriteMethod writeMethod,
    TableTarget target,
    boolean validateOutputTable) {

  /** Validates {@code options}; fills Beam's triggering frequency for exactly-once when unset. */
  public static ConsumerConfig validate(ConsumerOptions options) {
    RowFormat format = RowFormat.fromFlag(options.getRowFormat());
    RowEncoding encoding = RowEncoding.fromFlag(options.getRowEncoding());
    WriteMethod method = WriteMethod.fromFlag(options.getWriteMethod());
    SinkKind.fromFlag(options.getSink());
    TableTarget target =
        TableTarget.parse(
            "--outputTable", options.getOutputTable(), options.getProject(), options.getDestinationTables());
    if (SourceKind.fromFlag(options.getSource()) == SourceKind.PUBSUB) {
      PubsubPaths.subscription(options.getProject(), "--subscription", options.getSubscription());
    } else if (options.getSyntheticMessages() < 1) {
      throw new IllegalArgumentException(
          "--syntheticMessages=" + options.getSyntheticMessages() + " must be 1 or more with --source=synthetic");
    }
    if (method == WriteMethod.EXACTLY_ONCE && options.getUseStorageApiConnectionPool()) {
      throw new IllegalArgumentException(
          "--useStorageApiConnectionPool=true needs --writeMethod=at-least-once: Beam multiplexes"
              + " connections only for the default stream that at-least-once writes to. Drop the"
              + " pooling flag, or switch the write method.");
    }
    if (method == WriteMethod.AT_LEAST_ONCE && options.getNumStorageWriteApiStreams() != 0) {
      throw new IllegalArgumentException(
          "--numStorageWriteApiStreams="
              + options.getNumStorageWriteApiStreams()
              + " has no effect with --writeMethod=at-least-once (it always writes to the default"
              + " stream). Remove it, or use --writeMethod=exactly-once.");
    }
    if (method == WriteMethod.AT_LEAST_ONCE && options.getStorageWriteApiTriggeringFrequencySec() != null) {
      throw new IllegalArgumentException(
          "--storageWriteApiTriggeringFrequencySec has no effect with --writeMethod=at-least-once"
              + " (rows are appended as they arrive). Remove it, or use --writeMethod=exactly-once.");
    }
    if (options.getMinConnectionPoolConnections() != null
        && options.getMaxConnectionPoolConnections() != null
        && options.getMinConnectionPoolConnections() > options.getMaxConnectionPoolConnections()) {
      throw new IllegalArgumentException(
          "--minConnectionPoolConnections="
              + options.getMinConnectionPoolConnections()
              + " is above --maxConnectionPoolConnections="
              + options.getMaxConnectionPoolConnections()
              + "; make min <= max");
    }
    if (options.getEmulatorPullBatchSize() < 1) {
      throw new IllegalArgumentException(
          "--emulatorPullBatchSize=" + options.getEmulatorPullBatchSize() + " must be 1 or more");
    }
    if (method == WriteMethod.EXACTLY_ONCE
        && options.getNumStorageWriteApiStreams() == 0
        && options.getRunner().getSimpleName().equals("DataflowRunner")
        && !streamingEngine(options)) {
      throw new IllegalArgumentException(
          "--writeMethod=exactly-once with Dataflow choosing the number of streams"
              + " (--numStorageWriteApiStreams=0, the default) needs Streaming Engine: add"
              + " --enableStreamingEngine=true, or set --numStorageWriteApiStreams=N");
    }
    if (method == WriteMethod.EXACTLY_ONCE && options.getStorageWriteApiTriggeringFrequencySec() == null) {
      // Beam requires a triggering frequency for exactly-once on unbounded input; 1 s is what the
      // reference rounds used and what keeps end-to-end latency low.
      options.setStorageWriteApiTriggeringFrequencySec(1);
    }
    return new ConsumerConfig(format, encoding, method, target, options.getValidateOutputTable());
  }

  private static boolean streamingEngine(ConsumerOptions options) {
    return options.as(DataflowPipelineOptions.class).isEnableStreamingEngine()
        || ExperimentalOptions.hasExperiment(options, "enable_streaming_engine");
  }
}
