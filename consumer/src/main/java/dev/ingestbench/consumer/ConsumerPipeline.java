package dev.ingestbench.consumer;

import com.google.api.services.bigquery.model.TableRow;
import com.google.protobuf.Message;
import dev.ingestbench.consumer.local.ClientLogging;
import dev.ingestbench.consumer.local.EmulatorView;
import dev.ingestbench.consumer.local.InProcessEmulator;
import dev.ingestbench.consumer.local.LocalRun;
import dev.ingestbench.consumer.local.RemoteEmulator;
import dev.ingestbench.consumer.local.LocalRunnerDefaults;
import dev.ingestbench.consumer.local.OwnJvm;
import dev.ingestbench.consumer.local.StopSignal;
import dev.ingestbench.consumer.rows.ConvertToRowsFn;
import dev.ingestbench.consumer.rows.CountDeadLetterWriteFailuresFn;
import dev.ingestbench.consumer.rows.DescribeRejectedRowsFn;
import dev.ingestbench.consumer.rows.MessageToBeamRow;
import dev.ingestbench.consumer.rows.MessageToProto;
import dev.ingestbench.consumer.rows.MessageToRow;
import dev.ingestbench.consumer.rows.RowBuilder;
import dev.ingestbench.consumer.rows.RowSchemas;
import dev.ingestbench.consumer.rows.RowFormat;

import dev.ingestbench.consumer.sink.EmulatorBigQueryServices;
import dev.ingestbench.consumer.sink.TableTarget;
import dev.ingestbench.consumer.sink.WriteRows;
import dev.ingestbench.consumer.source.ReadMessages;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.MainErrors;
import java.io.IOException;
import org.apache.beam.runners.flink.FlinkPipelineOptions;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.extensions.protobuf.ProtoCoder;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowJsonCoder;
import org.apache.beam.sdk.io.gcp.bigquery.WriteResult;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.schemas.SchemaCoder;
import org.apache.beam.sdk.transforms.Flatten;
import org.apache.beam.sdk.transforms.ParDo;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.PCollectionList;
import org.apache.beam.sdk.values.PCollectionTuple;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TupleTag;
import org.apache.beam.sdk.values.TupleTagList;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streaming pipeline: messages (Pub/Sub, Kafka or synthetic; JSON or Avro) to rows to BigQuery's Storage Write API, with
 * every message that cannot be written landing in {@code TABLE_dlq} with the reason.
 *
 * <p>Beam metrics (namespace {@code consumer}): {@code messages_read}, {@code rows_converted},
 * {@code dead_lettered_parse}, {@code rows_rejected} and {@code dead_letter_write_failures}; rows written are those converted and not
 * rejected, and the local BigQuery emulator counts them exactly.
 */
public final class ConsumerPipeline {
  private static final Logger LOG = LoggerFactory.getLogger(ConsumerPipeline.class);

  private ConsumerPipeline() {}

  /**
   * Adds the consumer to {@code pipeline}. Tests call this with the configuration of the flags a
   * user passes, so the tested graph is the shipped graph; {@code services} points at a BigQuery
   * emulator, or is null for BigQuery.
   */
  public static void build(
      Pipeline pipeline, ConsumerConfig config, @Nullable BigQueryServices services) {
    PCollection<PubsubMessage> messages = pipeline.apply(new ReadMessages(config));
    RowFormat format = config.rowFormat();
    Converted converted =
        switch (config.rowEncoding()) {
          case TABLEROW ->
              convertAndWrite(messages, config.sourceName(), config, services, MessageToRow::convert,
                  TableRowJsonCoder.of(), BigQueryIO.writeTableRows(), TableTarget::eventIndexOf);
          case BEAM_ROW ->
              convertAndWrite(messages, config.sourceName(), config, services, MessageToBeamRow::convert,
                  SchemaCoder.of(MessageToBeamRow.schema(format)),
                  BigQueryIO.<Row>write().useBeamSchema(),
                  row -> row.getInt64(RowSchemas.EVENT_INDEX));
          case PROTO -> protoRoute(messages, config.sourceName(), config, services, MessageToProto.rowClass(format));
        };
    PCollection<TableRow> rejected =
        converted.written()
            .getFailedStorageApiInserts()
            .apply("Describe rejected rows", ParDo.of(new DescribeRejectedRowsFn()))
            .setCoder(TableRowJsonCoder.of());
    PCollectionList.of(converted.deadLetters())
        .and(rejected)
        .apply("Gather dead letters", Flatten.pCollections())
        .apply(
            "Write dead letters",
            new WriteRows<>(BigQueryIO.writeTableRows(), config.target().deadLetters(), RowSchemas.deadLetter(),
                WriteMethod.AT_LEAST_ONCE, null, TableTarget::eventIndexOf, config.validateOutputTable(), services))
        .getFailedStorageApiInserts()
        .apply("Count dead letters not written", ParDo.of(new CountDeadLetterWriteFailuresFn()));
  }

  /** What converting and writing left: the write's result and the messages that never became rows. */
  private record Converted(WriteResult written, PCollection<TableRow> deadLetters) {}

  private static <T> Converted convertAndWrite(
      PCollection<PubsubMessage> messages,
      String sourceName,
      ConsumerConfig config,
      @Nullable BigQueryServices services,
      RowBuilder<T> builder,
      Coder<T> coder,
      BigQueryIO.Write<T> base,
      SerializableFunction<T, Long> eventIndexOf) {
    TupleTag<T> rows = new TupleTag<>() {};
    PCollectionTuple converted =
        messages.apply(
            "Convert to rows",
            ParDo.of(new ConvertToRowsFn<>(config.messageFormat(), config.maxMessageBytes(), config.failAtMessage(),
                config.rowFormat(), sourceName,
                builder, rows))
                .withOutputTags(rows, TupleTagList.of(ConvertToRowsFn.DEAD_LETTERS)));
    WriteResult written =
        converted
            .get(rows)
            .setCoder(coder)
            .apply(
                "Write rows",
                new WriteRows<>(base, config.target(), RowSchemas.forFormat(config.rowFormat()),
                    config.writeMethod(), config.triggeringFrequencySec(), eventIndexOf,
                    config.validateOutputTable(), services));
    return new Converted(written, converted.get(ConvertToRowsFn.DEAD_LETTERS).setCoder(TableRowJsonCoder.of()));
  }

  private static <M extends Message> Converted protoRoute(
      PCollection<PubsubMessage> messages,
      String sourceName,
      ConsumerConfig config,
      @Nullable BigQueryServices services,
      Class<M> rowClass) {
    RowBuilder<M> builder =
        (message, format, metadata, payload) -> rowClass.cast(MessageToProto.convert(message, format, metadata, payload));
    return convertAndWrite(messages, sourceName, config, services, builder, ProtoCoder.of(rowClass),
        BigQueryIO.writeProtos(rowClass), ConsumerPipeline::protoEventIndex);
  }

  /** The event index field of a generated row, or null when the message had none. */
  private static Long protoEventIndex(Message row) {
    var field = row.getDescriptorForType().findFieldByName(RowSchemas.EVENT_INDEX);
    return field != null && row.hasField(field) ? (Long) row.getField(field) : null;
  }

  /** How a run of {@link #run} ended. */
  public enum Outcome {
    /** Handed to Dataflow (or written as a template): the job runs on. */
    SUBMITTED,
    /** A local run that accounted for every expected message. */
    COMPLETE,
    /** A local run that stopped (timeout, pipeline ended) before everything arrived. */
    INCOMPLETE;

    public int exitCode() {
      return this == INCOMPLETE ? ExitCodes.INCOMPLETE : ExitCodes.OK;
    }
  }

  /** Parses flags (with the local defaults when no GCP runner is named) into options. */
  public static ConsumerOptions parse(String[] args) {
    PipelineOptionsFactory.register(ConsumerOptions.class);
    return PipelineOptionsFactory.fromArgs(LocalRunnerDefaults.apply(args))
        .withValidation()
        .as(ConsumerOptions.class);
  }

  /**
   * Parses and validates {@code args} once, then runs the consumer: locally against the in-process
   * sink (driven to completion), or submitted to Dataflow. Bad flags throw {@link
   * IllegalArgumentException} before anything starts.
   */
  public static Outcome run(String[] args) throws Exception {
    ConsumerOptions options = parse(args);
    ConsumerConfig config = ConsumerConfig.from(options);
    if (!config.sink().isLocal()) {
      Pipeline pipeline = Pipeline.create(options);
      build(pipeline, config, null);
      // On Dataflow (and for Flex Templates) the launcher returns once the job is submitted.
      LOG.info("Submitted: {}", pipeline.run());
      return Outcome.SUBMITTED;
    }
    if (config.runnerName().equals("FlinkRunner") && OwnJvm.isIsolated(ConsumerPipeline.class)) {
      int exit = OwnJvm.run(ConsumerPipeline.class, args);
      return switch (exit) {
        case ExitCodes.OK -> Outcome.COMPLETE;
        case ExitCodes.INCOMPLETE -> Outcome.INCOMPLETE;
        default -> throw new IOException("the consumer's own JVM failed (exit " + exit + "); see its output above");
      };
    }
    return runLocally(options, config).complete() ? Outcome.COMPLETE : Outcome.INCOMPLETE;
  }

  /**
   * Runs the consumer in this JVM against a BigQuery emulator (its own, or the shared one of {@code
   * --sink=emulator}) until every expected message is accounted for (or the timeout), then stops
   * its own emulator and removes the run's checkpoints; also when the process is asked to stop
   * (SIGTERM, Ctrl-C), with the results so far.
   */
  public static LocalRun.Result runLocally(ConsumerOptions options, ConsumerConfig config) throws Exception {
    ClientLogging.quietForLocalRuns();
    LocalRunnerDefaults.deleteOrphanedCheckpoints();
    String savepoint = options.as(FlinkPipelineOptions.class).getSavepointPath();
    if (savepoint != null) {
      LOG.info("Restoring the job's state (keyed state, timers, source positions) from the Flink checkpoint {}", savepoint);
    }
    try (StopSignal stop = StopSignal.install()) {
      try (EmulatorView emulator = emulator(options, config)) {
        Pipeline pipeline = Pipeline.create(options);
        build(pipeline, config, new EmulatorBigQueryServices(emulator.storageWriteEndpoint()));
        return LocalRun.drive(pipeline, emulator, config, stop);
      } finally {
        LocalRunnerDefaults.deleteCheckpoints(options);
      }
    }
  }

  private static EmulatorView emulator(ConsumerOptions options, ConsumerConfig config) throws IOException {
    return config.sink() == SinkKind.EMULATOR
        ? new RemoteEmulator(config.storageWriteEndpoint(), options.getBigQueryEndpoint(), config.jobName())
        : InProcessEmulator.start(options, config.jobName(), options.getPublishedMessages());
  }

  public static void main(String[] args) {
    System.exit(MainErrors.run("consumer", () -> run(args).exitCode()));
  }
}
