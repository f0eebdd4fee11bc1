package dev.ingestbench.consumer.rows;

import com.google.api.services.bigquery.model.TableRow;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.ingestbench.contracts.job.RowFormat;
import org.apache.beam.sdk.io.gcp.bigquery.BeamRowToStorageApiProto;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowToStorageApiProto;
import org.apache.beam.sdk.values.Row;

/**
 * The bytes BigQueryIO appends for a row, made with the same public Beam functions, descriptor and
 * schema information its Storage Write API path uses (see Beam's
 * StorageApiDynamicDestinationsTableRow and StorageApiDynamicDestinationsBeamRow), and the way back
 * to a TableRow to compare encodings. One instance per row format; thread-safe.
 */
public final class StorageApiBytes {
  private final Descriptor descriptor;
  private final TableRowToStorageApiProto.SchemaInformation schemaInformation;

  public StorageApiBytes(RowFormat format) {
    try {
      var table = RowSchemas.forFormat(format);
      this.descriptor = TableRowToStorageApiProto.getDescriptorFromTableSchema(table, true, false);
      this.schemaInformation =
          TableRowToStorageApiProto.SchemaInformation.fromTableSchema(
              TableRowToStorageApiProto.schemaToProtoTableSchema(table));
    } catch (Exception e) {
      throw new IllegalStateException("the " + format + " schema has no Storage API descriptor", e);
    }
  }

  /** {@code --rowEncoding=tablerow}: Beam's TableRow-to-proto conversion. */
  public byte[] fromTableRow(TableRow row) throws Exception {
    return TableRowToStorageApiProto.messageFromTableRow(
            schemaInformation, descriptor, row, false, false, null, null, null)
        .toByteArray();
  }

  /** {@code --rowEncoding=beam-row}: Beam's Row-to-proto conversion. */
  public byte[] fromBeamRow(Row row) {
    return BeamRowToStorageApiProto.messageFromBeamRow(descriptor, row, null, null).toByteArray();
  }

  public DescriptorProto descriptor() {
    return descriptor.toProto();
  }

  /** Decodes appended bytes back into the TableRow BigQuery would store. */
  public TableRow toTableRow(byte[] bytes) throws InvalidProtocolBufferException {
    return TableRowToStorageApiProto.tableRowFromMessage(
        schemaInformation, DynamicMessage.parseFrom(descriptor, bytes), true, c -> true);
  }
}
