package dev.ingestbench.bigquery;

import com.google.cloud.bigquery.storage.v1.ProtoSchema;
import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.ingestbench.contracts.DeadLetterSample;
import dev.ingestbench.contracts.RowKeyColumns;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What the server needs from a writer schema: the verification keys of each row, checked as
 * BigQuery checks it ({@link RowScanner}, against the schema's {@link RowShape}), and dead-letter
 * rows in full.
 */
final class RowDecoder {
  private final RowScanner scanner;
  private final @Nullable Descriptor deadLetterDescriptor;
  private final @Nullable FieldDescriptor errorField;
  private final @Nullable FieldDescriptor stageField;
  private final @Nullable FieldDescriptor indexField;
  private final @Nullable FieldDescriptor payloadField;
  private final @Nullable FieldDescriptor payloadBytesField;

  RowDecoder(ProtoSchema schema, RowShape shape, boolean deadLetterTable) {
    DescriptorProto proto = schema.getProtoDescriptor();
    this.scanner = new RowScanner(shape);
    Descriptor descriptor = deadLetterTable ? descriptor(proto) : null;
    this.deadLetterDescriptor = descriptor;
    this.errorField = field(descriptor, RowKeyColumns.ERROR);
    this.stageField = field(descriptor, "error_stage");
    this.indexField = field(descriptor, RowKeyColumns.EVENT_INDEX);
    this.payloadField = field(descriptor, "payload");
    this.payloadBytesField = field(descriptor, "payload_bytes");
  }

  private static @Nullable FieldDescriptor field(@Nullable Descriptor descriptor, String name) {
    return descriptor == null ? null : descriptor.findFieldByName(name);
  }

  /** Fills {@code keys} with the row's event index and publish micros; fails on invalid bytes. */
  void scan(ByteString row, long[] keys) throws IOException {
    scanner.scan(row, keys);
  }

  /**
   * A dead-letter row in full; null for data tables. The payload is a BYTES column (a STRING one,
   * as older consumers wrote, is taken as its UTF-8 bytes).
   */
  @Nullable DeadLetterSample deadLetter(ByteString row) throws InvalidProtocolBufferException {
    if (deadLetterDescriptor == null) {
      return null;
    }
    DynamicMessage message = DynamicMessage.parseFrom(deadLetterDescriptor, row);
    Object payload = value(message, payloadField);
    byte[] bytes =
        payload instanceof ByteString b
            ? b.toByteArray()
            : payload == null ? null : payload.toString().getBytes(StandardCharsets.UTF_8);
    Object size = value(message, payloadBytesField);
    Object index = value(message, indexField);
    return new DeadLetterSample(
        text(value(message, stageField)),
        text(value(message, errorField)),
        index instanceof Long l ? l : null,
        size instanceof Long l ? l : bytes == null ? null : (long) bytes.length,
        bytes == null ? null : Base64.getEncoder().encodeToString(bytes));
  }

  private static @Nullable Object value(DynamicMessage message, @Nullable FieldDescriptor field) {
    return field == null || !message.hasField(field) ? null : message.getField(field);
  }

  private static @Nullable String text(@Nullable Object value) {
    return value == null ? null : value.toString();
  }

  private static Descriptor descriptor(DescriptorProto proto) {
    try {
      FileDescriptor file =
          FileDescriptor.buildFrom(
              FileDescriptorProto.newBuilder()
                  .setName("writer_schema.proto")
                  .addMessageType(proto)
                  .build(),
              new FileDescriptor[0]);
      return file.getMessageTypes().get(0);
    } catch (DescriptorValidationException e) {
      throw WriteApiException.invalid("", "Invalid proto schema: " + e.getMessage());
    }
  }
}
