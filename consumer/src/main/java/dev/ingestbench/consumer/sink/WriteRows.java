package dev.ingestbench.consumer.sink;

import com.google.api.services.bigquery.model.TableRow;
import com.google.api.services.bigquery.model.TableSchema;
import dev.ingestbench.consumer.WriteMethod;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryHelpers;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.io.gcp.bigquery.WriteResult;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.values.PCollection;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Writes TableRows with BigQueryIO's Storage Write API: the same transform on Dataflow and locally,
 * where {@code services} points it at the in-process sink.
 */
public class WriteRows extends PTransform<PCollection<TableRow>, WriteResult> {
  private final TableTarget target;
  private final String schemaJson;
  private final WriteMethod method;
  private final @Nullable BigQueryServices services;

  public WriteRows(
      TableTarget target, TableSchema schema, WriteMethod method, @Nullable BigQueryServices services) {
    this.target = target;
    this.schemaJson = BigQueryHelpers.toJsonString(schema);
    this.method = method;
    this.services = services;
  }

  @Override
  public WriteResult expand(PCollection<TableRow> rows) {
    BigQueryIO.Write<TableRow> write =
        BigQueryIO.writeTableRows()
            .withJsonSchema(schemaJson)
            .withCreateDisposition(BigQueryIO.Write.CreateDisposition.CREATE_IF_NEEDED)
            .withWriteDisposition(BigQueryIO.Write.WriteDisposition.WRITE_APPEND)
            .withMethod(method.beamMethod());
    write = target.tables() == 1 ? write.to(target.spec(0)) : write.to(target.router());
    if (services != null) {
      write = write.withTestServices(services);
    }
    return rows.apply("Storage Write API", write);
  }
}
