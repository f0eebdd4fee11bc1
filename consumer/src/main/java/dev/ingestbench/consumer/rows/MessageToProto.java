package dev.ingestbench.consumer.rows;

import com.google.protobuf.Message;
import dev.ingestbench.consumer.rows.proto.JsonColumnRow;
import dev.ingestbench.consumer.rows.proto.TypedRow;
import dev.ingestbench.contracts.job.RowFormat;
import dev.ingestbench.events.MessageFormat;

/**
 * One message as a generated protobuf row ({@code --rowEncoding=proto}): what {@code
 * BigQueryIO.writeProtos} sends without any further conversion.
 */
public final class MessageToProto {
  private MessageToProto() {}

  /** The protobuf class of rows in {@code format}. */
  public static Class<? extends Message> rowClass(RowFormat format) {
    return format == RowFormat.TYPED ? TypedRow.class : JsonColumnRow.class;
  }

  /**
   * @throws dev.ingestbench.events.MalformedEventException naming what is wrong
   */
  public static Message convert(RowFormat format, MessageMetadata metadata, byte[] payload) {
    return convert(MessageFormat.JSON, format, metadata, payload);
  }

  /**
   * The row of a {@code message}-format payload. Typed rows are filled straight from the payload's
   * bytes (JSON tokens or Avro fields, checked by {@link EventChecks} on the way), with no event
   * object or TableRow in between.
   *
   * @throws dev.ingestbench.events.MalformedEventException naming what is wrong
   */
  public static Message convert(
      MessageFormat message, RowFormat format, MessageMetadata metadata, byte[] payload) {
    Long index = MessageToRow.eventIndex(metadata.attributes());
    switch (format) {
      case JSON_COLUMN -> {
        String json = JsonChecks.payloadJson(message, payload);
        JsonColumnRow.Builder row =
            JsonColumnRow.newBuilder()
                .setSubscriptionName(metadata.subscriptionName())
                .setMessageId(metadata.messageId())
                .setPublishTime(metadata.publishMicros())
                .setProcessingTime(metadata.processingMicros())
                .setAttributes(JsonChecks.attributesJson(metadata.attributes()))
                .setPayload(json);
        if (index != null) {
          row.setEventIndex(index);
        }
        return row.build();
      }
      case TYPED -> {
        TypedRow.Builder row =
            TypedRow.newBuilder()
                .setSubscriptionName(metadata.subscriptionName())
                .setMessageId(metadata.messageId())
                .setPublishTime(metadata.publishMicros())
                .setProcessingTime(metadata.processingMicros());
        EventChecks.read(message, payload, new TypedRowFields(row));
        if (index != null) {
          row.setEventIndex(index);
        }
        return row.build();
      }
      default -> throw new IllegalArgumentException("unknown row format " + format);
    }
  }
}
