package dev.ingestbench.bigquery;

import static com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type.*;

import com.google.cloud.bigquery.storage.v1.StorageError.StorageErrorCode;
import com.google.cloud.bigquery.storage.v1.TableFieldSchema;
import com.google.cloud.bigquery.storage.v1.TableSchema;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.WireFormat;
import dev.ingestbench.contracts.RowKeyColumns;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A writer schema checked against its table, as BigQuery checks it when an AppendRows connection
 * names a schema: every field must be a column ({@code SCHEMA_MISMATCH_EXTRA_FIELDS}), of a
 * protobuf type BigQuery accepts for the column's type and with the column's mode ("The proto field
 * mismatched with BigQuery field"). What is left is what each row must look like: the wire type of
 * every field and which fields a REQUIRED column needs ({@link RowScanner} checks rows against it).
 *
 * <p>The accepted types are the table "Supported protocol buffer data types" of BigQuery's Storage
 * Write API documentation; a message field stands for the wrapper and well-known types it lists
 * (google.protobuf.Int64Value, Timestamp, ...) and for STRUCT and RANGE columns.
 */
final class RowShape {
  /** Field numbers above this are looked up in a map instead of an array. */
  private static final int DENSE_FIELD_NUMBERS = 1024;

  private final Map<Integer, Field> sparse = new HashMap<>();
  private final Field[] dense;

  /** The fields whose column is REQUIRED, in the order of their bit in a row's presence mask. */
  private final List<Field> required = new ArrayList<>();

  final int eventIndexField;
  final int publishTimeField;
  final int messageIdField;

  /**
   * One field of the writer schema: its column, its wire type, its bit if the column is REQUIRED.
   */
  record Field(String column, int number, int wireType, boolean repeated, long requiredBit) {}

  private RowShape(
      List<Field> fields, int eventIndexField, int publishTimeField, int messageIdField) {
    int max =
        fields.stream()
            .mapToInt(Field::number)
            .filter(n -> n < DENSE_FIELD_NUMBERS)
            .max()
            .orElse(0);
    max = Math.max(max, 0);
    this.dense = new Field[max + 1];
    for (Field f : fields) {
      if (f.number() < 0) {
        // a REQUIRED column the writer schema lacks: only its bit, never seen in a row
      } else if (f.number() < DENSE_FIELD_NUMBERS) {
        dense[f.number()] = f;
      } else {
        sparse.put(f.number(), f);
      }
      if (f.requiredBit() != 0) {
        required.add(f);
      }
    }
    this.eventIndexField = eventIndexField;
    this.publishTimeField = publishTimeField;
    this.messageIdField = messageIdField;
  }

  /**
   * Checks {@code writer} against {@code table}'s schema.
   *
   * @throws WriteApiException INVALID_ARGUMENT as BigQuery refuses the schema, naming the field
   */
  static RowShape of(DescriptorProto writer, TableSchema table, String stream) {
    Map<String, TableFieldSchema> columns = new HashMap<>();
    for (TableFieldSchema c : table.getFieldsList()) {
      columns.put(c.getName().toLowerCase(Locale.ROOT), c);
    }
    List<Field> fields = new ArrayList<>();
    int requiredCount = 0;
    int eventIndex = -1;
    int publishTime = -1;
    int messageId = -1;
    for (FieldDescriptorProto f : writer.getFieldList()) {
      TableFieldSchema column = columns.get(f.getName().toLowerCase(Locale.ROOT));
      if (column == null) {
        throw new WriteApiException(
            Status.Code.INVALID_ARGUMENT,
            StorageErrorCode.SCHEMA_MISMATCH_EXTRA_FIELDS,
            stream,
            "Input schema has more fields than BigQuery schema, extra fields: '"
                + f.getName()
                + "'");
      }
      boolean repeated = f.getLabel() == FieldDescriptorProto.Label.LABEL_REPEATED;
      boolean repeatedColumn = column.getMode() == TableFieldSchema.Mode.REPEATED;
      if (repeated != repeatedColumn || !accepts(column.getType(), f.getType())) {
        throw WriteApiException.invalid(
            stream,
            "The proto field mismatched with BigQuery field at "
                + writer.getName()
                + "."
                + f.getName()
                + ", the proto field type "
                + protoType(f)
                + ", BigQuery field type "
                + column.getType().name()
                + (repeated != repeatedColumn ? " (mode " + column.getMode().name() + ")" : ""));
      }
      long bit = 0;
      if (column.getMode() == TableFieldSchema.Mode.REQUIRED && requiredCount < Long.SIZE) {
        bit = 1L << requiredCount++;
      }
      fields.add(new Field(column.getName(), f.getNumber(), wireType(f.getType()), repeated, bit));
      boolean varint = wireType(f.getType()) == WireFormat.WIRETYPE_VARINT && !repeated;
      if (varint && f.getName().equalsIgnoreCase(RowKeyColumns.EVENT_INDEX)) {
        eventIndex = f.getNumber();
      } else if (varint && f.getName().equalsIgnoreCase(RowKeyColumns.PUBLISH_TIME)) {
        publishTime = f.getNumber();
      } else if (f.getName().equalsIgnoreCase(RowKeyColumns.MESSAGE_ID)
          && !repeated
          && wireType(f.getType()) == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
        messageId = f.getNumber();
      }
    }
    int absent = -1;
    for (TableFieldSchema c : table.getFieldsList()) {
      boolean inSchema =
          writer.getFieldList().stream().anyMatch(f -> f.getName().equalsIgnoreCase(c.getName()));
      if (c.getMode() == TableFieldSchema.Mode.REQUIRED && !inSchema && requiredCount < Long.SIZE) {
        // No row can give it a value: every row is refused, naming it (a field number no row has).
        fields.add(
            new Field(
                c.getName(), absent--, WireFormat.WIRETYPE_VARINT, false, 1L << requiredCount++));
      }
    }
    return new RowShape(fields, eventIndex, publishTime, messageId);
  }

  /** The field numbered {@code number}, or null when the writer schema has none. */
  Field field(int number) {
    return number < 0
        ? null
        : number < dense.length
            ? dense[number]
            : number >= DENSE_FIELD_NUMBERS ? sparse.get(number) : null;
  }

  /** Every bit of a row's presence mask set: every REQUIRED column had a value. */
  long allRequired() {
    return required.isEmpty()
        ? 0
        : required.size() == Long.SIZE ? -1L : (1L << required.size()) - 1;
  }

  /** The REQUIRED columns missing from a row with presence mask {@code seen}. */
  List<String> missing(long seen) {
    List<String> missing = new ArrayList<>();
    for (Field f : required) {
      if ((seen & f.requiredBit()) == 0) {
        missing.add(f.column());
      }
    }
    return missing;
  }

  /**
   * BigQuery's table "Supported protocol buffer data types"; a message stands for the wrapper
   * types.
   */
  static boolean accepts(TableFieldSchema.Type column, FieldDescriptorProto.Type proto) {
    return switch (column) {
      case BOOL ->
          is(proto, TYPE_BOOL, TYPE_INT32, TYPE_INT64, TYPE_UINT32, TYPE_UINT64, TYPE_MESSAGE);
      case BYTES -> is(proto, TYPE_BYTES, TYPE_STRING, TYPE_MESSAGE);
      case DATE -> is(proto, TYPE_INT32, TYPE_INT64, TYPE_STRING);
      case DATETIME, TIME -> is(proto, TYPE_STRING, TYPE_INT64);
      case DOUBLE -> is(proto, TYPE_DOUBLE, TYPE_FLOAT, TYPE_MESSAGE);
      case GEOGRAPHY, JSON -> is(proto, TYPE_STRING);
      case INT64 -> is(proto, TYPE_INT32, TYPE_INT64, TYPE_UINT32, TYPE_ENUM, TYPE_MESSAGE);
      case NUMERIC, BIGNUMERIC ->
          is(
              proto,
              TYPE_INT32,
              TYPE_INT64,
              TYPE_UINT32,
              TYPE_UINT64,
              TYPE_DOUBLE,
              TYPE_FLOAT,
              TYPE_STRING,
              TYPE_BYTES,
              TYPE_MESSAGE);
      case STRING -> is(proto, TYPE_STRING, TYPE_ENUM, TYPE_MESSAGE);
      case TIMESTAMP -> is(proto, TYPE_INT64, TYPE_INT32, TYPE_UINT32, TYPE_MESSAGE);
      case INTERVAL -> is(proto, TYPE_STRING, TYPE_MESSAGE);
      case STRUCT, RANGE -> is(proto, TYPE_MESSAGE, TYPE_GROUP);
      default -> false;
    };
  }

  private static boolean is(
      FieldDescriptorProto.Type proto, FieldDescriptorProto.Type... accepted) {
    for (FieldDescriptorProto.Type t : accepted) {
      if (t == proto) {
        return true;
      }
    }
    return false;
  }

  private static String protoType(FieldDescriptorProto f) {
    return f.getType().name().substring("TYPE_".length()).toLowerCase(Locale.ROOT);
  }

  /**
   * The wire type a field of {@code type} is sent with (packed repeated scalars use
   * LENGTH_DELIMITED too).
   */
  static int wireType(FieldDescriptorProto.Type type) {
    return switch (type) {
      case TYPE_DOUBLE, TYPE_FIXED64, TYPE_SFIXED64 -> WireFormat.WIRETYPE_FIXED64;
      case TYPE_FLOAT, TYPE_FIXED32, TYPE_SFIXED32 -> WireFormat.WIRETYPE_FIXED32;
      case TYPE_STRING, TYPE_BYTES, TYPE_MESSAGE -> WireFormat.WIRETYPE_LENGTH_DELIMITED;
      case TYPE_GROUP -> WireFormat.WIRETYPE_START_GROUP;
      default -> WireFormat.WIRETYPE_VARINT;
    };
  }
}
