package dev.ingestbench.bigquery;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.WireFormat;
import dev.ingestbench.contracts.RowKeyColumns;
import java.io.IOException;

/**
 * Reads the two columns verification needs ({@code event_index}, {@code publish_time}) straight out
 * of a serialized Storage Write API row, skipping every other field without decoding it.
 *
 * <p>This walks the whole protobuf record, so a row whose bytes are not valid protobuf still fails
 * loudly, yet it costs a fraction of a full decode: the sink must not be the bottleneck it measures.
 */
final class RowKeyScanner {
  /** Returned when a row has no event index (e.g. a foreign message): counted, never de-duplicated. */
  static final long ABSENT = Long.MIN_VALUE;

  private final int eventIndexField;
  private final int publishTimeField;

  RowKeyScanner(DescriptorProto descriptor) {
    this.eventIndexField = fieldNumber(descriptor, RowKeyColumns.EVENT_INDEX);
    this.publishTimeField = fieldNumber(descriptor, RowKeyColumns.PUBLISH_TIME);
  }

  private static int fieldNumber(DescriptorProto descriptor, String column) {
    for (FieldDescriptorProto field : descriptor.getFieldList()) {
      if (field.getName().equalsIgnoreCase(column)) {
        return field.getNumber();
      }
    }
    return -1;
  }

  /** Fills {@code keys[0]} with the event index and {@code keys[1]} with publish micros (or ABSENT). */
  void scan(ByteString row, long[] keys) throws IOException {
    keys[0] = ABSENT;
    keys[1] = ABSENT;
    CodedInputStream in = row.newCodedInput();
    int tag;
    while ((tag = in.readTag()) != 0) {
      int field = WireFormat.getTagFieldNumber(tag);
      if (field == eventIndexField) {
        keys[0] = in.readInt64();
      } else if (field == publishTimeField) {
        keys[1] = in.readInt64();
      } else if (!in.skipField(tag)) {
        break;
      }
    }
  }
}
