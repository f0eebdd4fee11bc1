package dev.ingestbench.consumer.sink;

import com.google.api.services.bigquery.model.TableSchema;
import dev.ingestbench.contracts.job.TableCreation;
import dev.ingestbench.contracts.job.WriteMethod;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryHelpers;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryIO;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryServices;
import org.apache.beam.sdk.io.gcp.bigquery.WriteResult;
import org.apache.beam.sdk.transforms.PTransform;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.PCollection;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.joda.time.Duration;

/**
 * Writes rows with BigQueryIO's Storage Write API: the same transform on Dataflow and locally,
 * where {@code services} points it at the in-process sink. {@code base} fixes the element type and
 * its conversion ({@code writeTableRows()}, {@code write().useBeamSchema()} or {@code
 * writeProtos}); {@code triggeringFrequencySec} is how often exactly-once commits (null for
 * at-least-once).
 */
public class WriteRows<T> extends PTransform<PCollection<T>, WriteResult> {
  private final BigQueryIO.Write<T> base;
  private final TableTarget target;
  private final String schemaJson;
  private final WriteMethod method;
  private final @Nullable Integer triggeringFrequencySec;
  private final @Nullable BigQueryServices services;
  private final SerializableFunction<T, Long> eventIndexOf;
  private final boolean validate;

  public WriteRows(
      BigQueryIO.Write<T> base,
      TableTarget target,
      TableSchema schema,
      WriteMethod method,
      @Nullable Integer triggeringFrequencySec,
      SerializableFunction<T, Long> eventIndexOf,
      boolean validate,
      @Nullable BigQueryServices services) {
    this.validate = validate;
    this.base = base;
    this.eventIndexOf = eventIndexOf;
    this.target = target;
    this.schemaJson = BigQueryHelpers.toJsonString(schema);
    this.method = method;
    this.triggeringFrequencySec = triggeringFrequencySec;
    this.services = services;
  }

  @Override
  public WriteResult expand(PCollection<T> rows) {
    BigQueryIO.Write<T> write =
        base.withCreateDisposition(
                target.creation() == TableCreation.AHEAD
                    ? BigQueryIO.Write.CreateDisposition.CREATE_NEVER
                    : BigQueryIO.Write.CreateDisposition.CREATE_IF_NEEDED)
            .withWriteDisposition(BigQueryIO.Write.WriteDisposition.WRITE_APPEND)
            .withMethod(BigQueryIO.Write.Method.valueOf(method.beamName()));
    if (triggeringFrequencySec != null && rows.isBounded() == PCollection.IsBounded.UNBOUNDED) {
      // On the write itself, not the pipeline-wide option: the at-least-once dead-letter write in
      // the same pipeline would otherwise warn that it ignores the option. A bounded input (the
      // synthetic source) commits once at the end and refuses a frequency.
      write = write.withTriggeringFrequency(Duration.standardSeconds(triggeringFrequencySec));
    }
    // One table: its spec and the schema. Several: the routing gives each row its table's number,
    // and the schema comes from the destinations (BigQueryIO takes it from one place only).
    write =
        target.tables() == 1
            ? write.to(target.spec(0)).withJsonSchema(schemaJson)
            : write.to(new RoutedTables<>(target, eventIndexOf, schemaJson));
    if (!validate) {
      write = write.withoutValidation();
    }
    if (services != null) {
      write = write.withTestServices(services);
    }
    return rows.apply("Storage Write API", write);
  }
}
