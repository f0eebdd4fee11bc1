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
import dev.ingestbench.contracts.RowKeyColumns;
import java.io.IOException;
import java.util.Locale;
import java.util.Set;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What the server needs from a writer schema: the verification keys of each row ({@link
 * RowKeyScanner}), the error text of dead-letter rows, and the schema check BigQuery makes (a field
 * the table does not have is refused).
 */
final class RowDecoder {
  private final RowKeyScanner scanner;
  private final @Nullable Descriptor deadLetterDescriptor;
  private final @Nullable FieldDescriptor errorField;

  RowDecoder(ProtoSchema schema, boolean deadLetterTable) {
    DescriptorProto proto = schema.getProtoDescriptor();
    this.scanner = new RowKeyScanner(proto);
    Descriptor descriptor = deadLetterTable ? descriptor(proto) : null;
    this.deadLetterDescriptor = descriptor;
    this.errorField = descriptor == null ? null : descriptor.findFieldByName(RowKeyColumns.ERROR);
  }

  /** The first top-level field of {@code schema} that is not a column of the table, or null. */
  static @Nullable String extraField(ProtoSchema schema, Set<String> columns) {
    for (var field : schema.getProtoDescriptor().getFieldList()) {
      if (!columns.contains(field.getName().toLowerCase(Locale.ROOT))) {
        return field.getName();
      }
    }
    return null;
  }

  /** Fills {@code keys} with the row's event index and publish micros; fails on invalid bytes. */
  void scan(ByteString row, long[] keys) throws IOException {
    scanner.scan(row, keys);
  }

  /** The error text of a dead-letter row; null for data tables. */
  @Nullable String error(ByteString row) throws InvalidProtocolBufferException {
    if (deadLetterDescriptor == null || errorField == null) {
      return null;
    }
    return String.valueOf(DynamicMessage.parseFrom(deadLetterDescriptor, row).getField(errorField));
  }

  private static Descriptor descriptor(DescriptorProto proto) {
    try {
      FileDescriptor file =
          FileDescriptor.buildFrom(
              FileDescriptorProto.newBuilder().setName("writer_schema.proto").addMessageType(proto).build(),
              new FileDescriptor[0]);
      return file.getMessageTypes().get(0);
    } catch (DescriptorValidationException e) {
      throw WriteApiException.invalid("", "Invalid proto schema: " + e.getMessage());
    }
  }
}
