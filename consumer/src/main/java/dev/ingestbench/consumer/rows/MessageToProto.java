package dev.ingestbench.consumer.rows;

import com.google.protobuf.Message;
import dev.ingestbench.consumer.rows.proto.JsonColumnRow;
import dev.ingestbench.consumer.rows.proto.TypedRow;
import java.nio.charset.StandardCharsets;

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
    Long index = MessageToRow.eventIndex(metadata.attributes());
    switch (format) {
      case JSON_COLUMN -> {
        JsonChecks.requireJsonObject(payload);
        JsonColumnRow.Builder row =
            JsonColumnRow.newBuilder()
                .setSubscriptionName(metadata.subscriptionName())
                .setMessageId(metadata.messageId())
                .setPublishTime(metadata.publishMicros())
                .setProcessingTime(metadata.processingMicros())
                .setAttributes(JsonChecks.attributesJson(metadata.attributes()))
                .setPayload(new String(payload, StandardCharsets.UTF_8));
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
        TypedRowParser.parseInto(payload, row);
        if (index != null) {
          row.setEventIndex(index);
        }
        return row.build();
      }
      default -> throw new IllegalArgumentException("unknown row format " + format);
    }
  }
}
