package dev.ingestbench.consumer.sink;

import com.google.api.services.bigquery.model.TableSchema;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.VarIntCoder;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryHelpers;
import org.apache.beam.sdk.io.gcp.bigquery.DynamicDestinations;
import org.apache.beam.sdk.io.gcp.bigquery.TableDestination;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.ValueInSingleWindow;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A write to several tables: each row's destination is its table's number, decided from its event
 * index by the target's routing (rows without one go to table 0), and only {@link #getTable} turns
 * the number into the table with its routing description (which CREATE_IF_NEEDED writes into each
 * table it makes, and by which the local BigQuery checks every row).
 *
 * <p>Why a number and not a {@link TableDestination} per row ({@code
 * BigQueryIO.Write.to(function)}): the destination is the key every row carries through the write's
 * shuffles (exactly-once groups rows by it), and a TableDestination is encoded whole, table spec
 * and description (~100 bytes); a number takes one or two.
 */
final class RoutedTables<T> extends DynamicDestinations<T, Integer> {
  private final TableTarget target;
  private final SerializableFunction<T, Long> eventIndexOf;
  private final String schemaJson;
  private transient @Nullable TableSchema schema;

  RoutedTables(TableTarget target, SerializableFunction<T, Long> eventIndexOf, String schemaJson) {
    this.target = target;
    this.eventIndexOf = eventIndexOf;
    this.schemaJson = schemaJson;
  }

  @Override
  public Integer getDestination(@Nullable ValueInSingleWindow<T> row) {
    Long index = row == null ? null : eventIndexOf.apply(row.getValue());
    return index == null ? 0 : target.routing().tableOf(index);
  }

  @Override
  public Coder<Integer> getDestinationCoder() {
    return VarIntCoder.of();
  }

  @Override
  public TableDestination getTable(Integer k) {
    return new TableDestination(target.spec(k), target.routing().description());
  }

  @Override
  public TableSchema getSchema(Integer k) {
    if (schema == null) {
      schema = BigQueryHelpers.fromJsonString(schemaJson, TableSchema.class);
    }
    return schema;
  }
}
