package dev.ingestbench.consumer.rows;

import com.google.api.services.bigquery.model.TableRow;
import dev.ingestbench.contracts.job.RowFormat;
import dev.ingestbench.events.MalformedEventException;
import dev.ingestbench.events.MessageFormat;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.apache.beam.sdk.values.TupleTag;
import org.joda.time.Instant;

/**
 * Message to row (in whichever encoding {@code builder} makes); a message that cannot become a row
 * goes to the dead-letter output with why.
 */
public class ConvertToRowsFn<T> extends DoFn<PubsubMessage, T> {
  public static final TupleTag<TableRow> DEAD_LETTERS = new TupleTag<>() {};

  private final MessageFormat messageFormat;
  private final int maxMessageBytes;
  private final long failAtMessage;

  /**
   * Messages converted per pipeline in this JVM, for {@code --failAtMessage}: static, so the job
   * the runner restarts in the same JVM (Flink's restart from a checkpoint) does not fail again;
   * keyed by {@link #pipelineId}, so each pipeline a JVM runs (tests run several) fails once of its
   * own.
   */
  private static final Map<String, AtomicLong> CONVERTED = new ConcurrentHashMap<>();

  private static final AtomicLong FAILURES_INJECTED = new AtomicLong();

  /**
   * Fixed when the pipeline is built; every copy the runner deserializes, also after a restart,
   * shares it.
   */
  private final String pipelineId = UUID.randomUUID().toString();

  private final RowFormat format;
  private final String subscriptionName;
  private final RowBuilder<T> builder;
  private final TupleTag<T> rows;
  private final Counter read = Metrics.counter("consumer", "messages_read");
  private final Counter converted = Metrics.counter("consumer", "rows_converted");
  private final Counter deadLettered = Metrics.counter("consumer", "dead_lettered_parse");

  /** Payload bytes read: a job's MB/s on Dataflow, where no server counts bytes per job. */
  private final Counter messageBytes = Metrics.counter("consumer", "message_bytes");

  public ConvertToRowsFn(
      MessageFormat messageFormat,
      int maxMessageBytes,
      long failAtMessage,
      RowFormat format,
      String subscriptionName,
      RowBuilder<T> builder,
      TupleTag<T> rows) {
    this.messageFormat = messageFormat;
    this.maxMessageBytes = maxMessageBytes;
    this.failAtMessage = failAtMessage;
    this.format = format;
    this.subscriptionName = subscriptionName;
    this.builder = builder;
    this.rows = rows;
  }

  /** Why a message did not become a row: the dead-letter stage that refused it, and the reason. */
  public record Refusal(String stage, String reason) {}

  /**
   * The checks every route makes, in one order (size, then the JSON text's encoding, then the index
   * attribute and the event as {@code builder} reads them through {@link EventChecks}), and the row
   * handed to {@code out}; or why not. A plain function, so that a test runs every route over the
   * same messages without a pipeline.
   */
  public static <T> Refusal convert(
      MessageFormat messageFormat,
      int maxMessageBytes,
      RowFormat format,
      RowBuilder<T> builder,
      MessageMetadata metadata,
      byte[] payload,
      Consumer<T> out) {
    if (payload.length > maxMessageBytes) {
      return new Refusal(
          DeadLetters.STAGE_SIZE,
          String.format(
              Locale.ROOT,
              "message is %,d bytes, over"
                  + " --maxMessageBytes=%,d: its row would not fit in one Storage Write append; the dead letter keeps its"
                  + " first %,d bytes",
              payload.length,
              maxMessageBytes,
              Math.min(payload.length, DeadLetters.OVERSIZED_PAYLOAD_KEPT)));
    }
    if (messageFormat == MessageFormat.JSON) {
      String problem = PayloadChecks.jsonEncodingProblem(payload);
      if (problem != null) {
        return new Refusal(DeadLetters.STAGE_DECODE, problem);
      }
    }
    T row;
    try {
      row = builder.build(messageFormat, format, metadata, payload);
    } catch (MalformedEventException e) {
      return new Refusal(DeadLetters.STAGE_PARSE, e.getMessage());
    }
    out.accept(row);
    return null;
  }

  /** Worker failures {@code --failAtMessage} injected in this JVM so far, by every pipeline. */
  public static long failuresInjected() {
    return FAILURES_INJECTED.get();
  }

  @ProcessElement
  public void processElement(
      @Element PubsubMessage message, @Timestamp Instant publishTime, MultiOutputReceiver out) {
    read.inc();
    if (failAtMessage > 0
        && CONVERTED.computeIfAbsent(pipelineId, id -> new AtomicLong()).incrementAndGet()
            == failAtMessage) {
      FAILURES_INJECTED.incrementAndGet();
      throw new IllegalStateException(
          "injected worker failure at message "
              + failAtMessage
              + " of this job"
              + " (--failAtMessage): the runner restarts the job from its last checkpoint");
    }
    long nowMicros = System.currentTimeMillis() * 1_000L;
    Map<String, String> attributes = message.getAttributeMap();
    MessageMetadata metadata =
        new MessageMetadata(
            subscriptionName,
            message.getMessageId() == null ? "" : message.getMessageId(),
            attributes,
            publishTime.getMillis() * 1_000L,
            nowMicros);
    byte[] payload = message.getPayload() == null ? new byte[0] : message.getPayload();
    messageBytes.inc(payload.length);
    ReadIndexes.record(attributes);
    Refusal refusal =
        convert(
            messageFormat,
            maxMessageBytes,
            format,
            builder,
            metadata,
            payload,
            out.get(rows)::output);
    if (refusal == null) {
      converted.inc();
      return;
    }
    Long index = null;
    try {
      index = MessageToRow.eventIndex(attributes);
    } catch (MalformedEventException badIndex) {
      // the index itself is what is malformed; the error says so
    }
    out.get(DEAD_LETTERS)
        .output(
            DeadLetters.forMessage(
                metadata, index, payload, refusal.stage(), refusal.reason(), nowMicros));
    deadLettered.inc();
  }
}
