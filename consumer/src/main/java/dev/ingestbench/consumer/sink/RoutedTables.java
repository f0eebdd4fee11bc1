package dev.ingestbench.consumer.sink;

import com.google.api.services.bigquery.model.TableSchema;
import org.apache.beam.sdk.coders.Coder;
import org.apache.beam.sdk.coders.StringUtf8Coder;
import org.apache.beam.sdk.io.gcp.bigquery.BigQueryHelpers;
import org.apache.beam.sdk.io.gcp.bigquery.DynamicDestinations;
import org.apache.beam.sdk.io.gcp.bigquery.TableDestination;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.ValueInSingleWindow;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A write to several tables: each row's destination is its table's spec ({@code
 * project:dataset.table_k}), decided from its event index by the target's routing (rows without one
 * go to table 0), and only {@link #getTable} adds the routing description (which CREATE_IF_NEEDED
 * writes into each table it makes, and by which the local BigQuery checks every row).
 *
 * <p>Why the spec alone and not a {@link TableDestination} per row ({@code
 * BigQueryIO.Write.to(function)}): the destination is the key every row carries through the write's
 * shuffles (exactly-once groups rows by it), and a TableDestination is encoded whole, spec and
 * description (~100 bytes). Why not the table's number, which is smaller still: Beam keeps its row
 * converters in a JVM-wide cache keyed by the transform's name and the destination, so two
 * pipelines in one JVM (tests, the direct runner) whose numbers meet would share a converter, and
 * with it one pipeline's schema; a spec names one table everywhere.
 */
final class RoutedTables<T> extends DynamicDestinations<T, String> {
  private final TableTarget target;
  private final SerializableFunction<T, Long> eventIndexOf;
  private final String schemaJson;
  private transient String @Nullable [] specs;
  private transient @Nullable TableSchema schema;

  RoutedTables(TableTarget target, SerializableFunction<T, Long> eventIndexOf, String schemaJson) {
    this.target = target;
    this.eventIndexOf = eventIndexOf;
    this.schemaJson = schemaJson;
  }

  @Override
  public String getDestination(@Nullable ValueInSingleWindow<T> row) {
    Long index = row == null ? null : eventIndexOf.apply(row.getValue());
    return spec(index == null ? 0 : target.routing().tableOf(index));
  }

  @Override
  public Coder<String> getDestinationCoder() {
    return StringUtf8Coder.of();
  }

  @Override
  public TableDestination getTable(String spec) {
    return new TableDestination(spec, target.routing().description());
  }

  @Override
  public TableSchema getSchema(String spec) {
    if (schema == null) {
      schema = BigQueryHelpers.fromJsonString(schemaJson, TableSchema.class);
    }
    return schema;
  }

  /** Table k's spec, made once per table rather than once per row. */
  private String spec(int k) {
    String[] known = specs;
    if (known == null) {
      known = new String[target.tables()];
      specs = known;
    }
    String spec = known[k];
    if (spec == null) {
      spec = target.spec(k);
      known[k] = spec;
    }
    return spec;
  }
}
