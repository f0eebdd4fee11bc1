package dev.ingestbench.bigquery;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;

/**
 * Reads the columns verification needs ({@code event_index}, {@code publish_time}, a hash of {@code
 * message_id}) straight out of a serialized Storage Write API row, and checks the row as BigQuery
 * decodes it by its writer schema: every field sent with the wire type its declared type has, every
 * REQUIRED column present. Other fields are skipped without being decoded.
 *
 * <p>This walks the whole protobuf record, so a row whose bytes are not valid protobuf fails
 * loudly, yet it costs a fraction of a full decode: the sink must not be the bottleneck it
 * measures.
 */
final class RowScanner {
  /**
   * Returned when a row has no event index (e.g. a foreign message): counted, never de-duplicated.
   */
  static final long ABSENT = Long.MIN_VALUE;

  private final RowShape shape;
  private final long allRequired;

  RowScanner(RowShape shape) {
    this.shape = shape;
    this.allRequired = shape.allRequired();
  }

  /**
   * Fills {@code keys[0]} with the event index, {@code keys[1]} with publish micros and {@code
   * keys[2]} with a hash of the message id (each ABSENT when the row has none).
   *
   * @throws IOException naming what is wrong with the row: bytes, a field's wire type, a missing
   *     column
   */
  void scan(ByteString row, long[] keys) throws IOException {
    keys[0] = ABSENT;
    keys[1] = ABSENT;
    keys[2] = ABSENT;
    long seen = 0;
    CodedInputStream in = row.newCodedInput();
    int tag;
    while ((tag = in.readTag()) != 0) {
      int number = WireFormat.getTagFieldNumber(tag);
      int wire = WireFormat.getTagWireType(tag);
      RowShape.Field field = shape.field(number);
      if (field != null) {
        boolean packed = field.repeated() && wire == WireFormat.WIRETYPE_LENGTH_DELIMITED;
        if (wire != field.wireType() && !packed) {
          throw new IOException(
              "field "
                  + number
                  + " ("
                  + field.column()
                  + ") has wire type "
                  + wire
                  + ", its type needs "
                  + field.wireType());
        }
        seen |= field.requiredBit();
      }
      if (number == shape.eventIndexField) {
        keys[0] = in.readInt64();
      } else if (number == shape.publishTimeField) {
        keys[1] = in.readInt64();
      } else if (number == shape.messageIdField) {
        int length = in.readRawVarint32();
        keys[2] = hash(row, in.getTotalBytesRead(), length);
        in.skipRawBytes(length);
      } else if (!in.skipField(tag)) {
        break;
      }
    }
    if (seen != allRequired) {
      throw new IOException("REQUIRED column(s) " + shape.missing(seen) + " have no value");
    }
  }

  /** FNV-1a of {@code row[from, from + length)}, read in place; never {@link #ABSENT}. */
  static long hash(ByteString row, int from, int length) {
    if (length < 0 || from + length > row.size()) {
      return ABSENT; // truncated: the protobuf walk fails on it right after
    }
    long h = 0xcbf29ce484222325L;
    for (int i = from; i < from + length; i++) {
      h = (h ^ (row.byteAt(i) & 0xff)) * 0x100000001b3L;
    }
    return h == ABSENT ? ABSENT + 1 : h;
  }
}
