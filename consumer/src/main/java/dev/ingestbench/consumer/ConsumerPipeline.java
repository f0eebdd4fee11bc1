package dev.ingestbench.consumer;

import com.google.api.services.bigquery.model.TableRow;
import com.google.protobuf.Message;
import dev.ingestbench.consumer.rows.ConvertToRowsFn;
import dev.ingestbench.consumer.rows.CountDeadLetterWriteFailuresFn;
import dev.ingestbench.consumer.rows.DescribeRejectedRowsFn;
import dev.ingestbench.consumer.rows.MessageToBeamRow;
import dev.ingestbench.consumer.rows.MessageToProto;
import dev.ingestbench.consumer.rows.MessageToRow;
import dev.ingestbench.consumer.rows.RowBuilder;
import dev.ingestbench.consumer.rows.RowSchemas;
import dev.ingestbench.consumer.sink.TableTarget;
import dev.ingestbench.consumer.sink.TablesAhead;
import dev.ingestbench.consumer.sink.WriteRows;
import dev.ingestbench.consumer.source.ReadMessages;
import dev.ingestbench.contracts.ExitCodes;
import dev.ingestbench.contracts.MainErrors;
import dev.ingestbench.contracts.job.RowFormat;
import dev.ingestbench.contracts.job.WriteMethod;
import java.util.Locale;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.extensions.protobuf.ProtoCoder;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryOptions;
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
 * Streaming pipeline: messages (Pub/Sub, Kafka or synthetic; JSON or Avro) to rows to BigQuery's
 * Storage Write API, with every message that cannot be written landing in {@code TABLE_dlq} with
 * the reason.
 *
 * <p>Beam metrics (namespace {@code consumer}): {@code messages_read}, {@code rows_converted},
 * {@code dead_lettered_parse}, {@code rows_rejected} and {@code dead_letter_write_failures}; rows
 * written are those converted and not rejected, and the local BigQuery emulator counts them
 * exactly.
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
              convertAndWrite(
                  messages,
                  config.sourceName(),
                  config,
                  services,
                  MessageToRow::convert,
                  TableRowJsonCoder.of(),
                  BigQueryIO.writeTableRows(),
                  TableTarget::eventIndexOf);
          case BEAM_ROW ->
              convertAndWrite(
                  messages,
                  config.sourceName(),
                  config,
                  services,
                  MessageToBeamRow::convert,
                  SchemaCoder.of(MessageToBeamRow.schema(format)),
                  BigQueryIO.<Row>write().useBeamSchema(),
                  row -> row.getInt64(RowSchemas.EVENT_INDEX));
          case PROTO ->
              protoRoute(
                  messages, config.sourceName(), config, services, MessageToProto.rowClass(format));
        };
    PCollection<TableRow> rejected =
        converted
            .written()
            .getFailedStorageApiInserts()
            .apply("Describe rejected rows", ParDo.of(new DescribeRejectedRowsFn()))
            .setCoder(TableRowJsonCoder.of());
    PCollectionList.of(converted.deadLetters())
        .and(rejected)
        .apply("Gather dead letters", Flatten.pCollections())
        .apply(
            "Write dead letters",
            new WriteRows<>(
                BigQueryIO.writeTableRows(),
                config.target().deadLetters(),
                RowSchemas.deadLetter(),
                WriteMethod.AT_LEAST_ONCE,
                null,
                TableTarget::eventIndexOf,
                config.validateOutputTable(),
                services))
        .getFailedStorageApiInserts()
        .apply("Count dead letters not written", ParDo.of(new CountDeadLetterWriteFailuresFn()));
  }

  /**
   * What converting and writing left: the write's result and the messages that never became rows.
   */
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
            ParDo.of(
                    new ConvertToRowsFn<>(
                        config.messageFormat(),
                        config.maxMessageBytes(),
                        config.failAtMessage(),
                        config.rowFormat(),
                        sourceName,
                        builder,
                        rows))
                .withOutputTags(rows, TupleTagList.of(ConvertToRowsFn.DEAD_LETTERS)));
    WriteResult written =
        converted
            .get(rows)
            .setCoder(coder)
            .apply(
                "Write rows",
                new WriteRows<>(
                    base,
                    config.target(),
                    RowSchemas.forFormat(config.rowFormat()),
                    config.writeMethod(),
                    config.triggeringFrequencySec(),
                    eventIndexOf,
                    config.validateOutputTable(),
                    services));
    return new Converted(
        written, converted.get(ConvertToRowsFn.DEAD_LETTERS).setCoder(TableRowJsonCoder.of()));
  }

  private static <M extends Message> Converted protoRoute(
      PCollection<PubsubMessage> messages,
      String sourceName,
      ConsumerConfig config,
      @Nullable BigQueryServices services,
      Class<M> rowClass) {
    RowBuilder<M> builder =
        (message, format, metadata, payload) ->
            rowClass.cast(MessageToProto.convert(message, format, metadata, payload));
    return convertAndWrite(
        messages,
        sourceName,
        config,
        services,
        builder,
        ProtoCoder.of(rowClass),
        BigQueryIO.writeProtos(rowClass),
        ConsumerPipeline::protoEventIndex);
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

  /**
   * Parses flags into options, as Beam does (a local run adds its defaults: consumer-local's
   * LocalConsumer).
   */
  public static ConsumerOptions parse(String[] args) {
    PipelineOptionsFactory.register(ConsumerOptions.class);
    return PipelineOptionsFactory.fromArgs(args).withValidation().as(ConsumerOptions.class);
  }

  /**
   * Parses and validates {@code args} once, then submits the consumer (to Dataflow, or written as a
   * template). A local sink is refused: this module is the pipeline alone, as the Flex Template
   * ships it; the module consumer-local runs it here. Bad flags throw {@link
   * IllegalArgumentException} before anything starts.
   */
  public static Outcome run(String[] args) throws Exception {
    ConsumerOptions options = parse(args);
    ConsumerConfig config = ConsumerConfig.from(options);
    if (config.sink().isLocal()) {
      throw new IllegalArgumentException(
          "--sink="
              + config.sink().name().toLowerCase(Locale.ROOT)
              + " runs the"
              + " consumer here against a local BigQuery emulator, and this is the pipeline alone (as the Flex Template"
              + " ships it): run it with ./ingestbench consume, or ./mvnw -q -pl consumer-local exec:java"
              + " -Dexec.args=\"...\"; for BigQuery give --runner=DataflowRunner (or --sink=bigquery)");
    }
    return submit(options, config);
  }

  /**
   * Builds the pipeline for BigQuery and submits it; on Dataflow the launcher returns once the job
   * runs.
   */
  public static Outcome submit(ConsumerOptions options, ConsumerConfig config) throws Exception {
    TablesAhead.create(
        config.target(),
        RowSchemas.forFormat(config.rowFormat()),
        options.as(BigQueryOptions.class),
        null);
    Pipeline pipeline = Pipeline.create(options);
    build(pipeline, config, null);
    LOG.info("Submitted: {}", pipeline.run());
    return Outcome.SUBMITTED;
  }

  public static void main(String[] args) {
    System.exit(MainErrors.run("consumer", () -> run(args).exitCode()));
  }
}
