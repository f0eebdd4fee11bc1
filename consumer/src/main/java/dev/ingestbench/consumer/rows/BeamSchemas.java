package dev.ingestbench.consumer.rows;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableSchema;
import dev.ingestbench.contracts.job.RowFormat;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.logicaltypes.SqlTypes;

/**
 * Beam schemas of the row formats ({@code --rowEncoding=beam-row}), derived from {@link RowSchemas}
 * so the two can never disagree: TIMESTAMP columns are microsecond {@code SqlTypes.TIMESTAMP}, JSON
 * columns strings.
 */
public final class BeamSchemas {
  private BeamSchemas() {}

  public static Schema forFormat(RowFormat format) {
    return fromTableSchema(RowSchemas.forFormat(format));
  }

  static Schema fromTableSchema(TableSchema table) {
    Schema.Builder schema = Schema.builder();
    for (TableFieldSchema column : table.getFields()) {
      Schema.FieldType type =
          switch (column.getType()) {
            case "STRING", "JSON" -> Schema.FieldType.STRING;
            case "INT64" -> Schema.FieldType.INT64;
            case "FLOAT64" -> Schema.FieldType.DOUBLE;
            case "TIMESTAMP" -> Schema.FieldType.logicalType(SqlTypes.TIMESTAMP);
            default -> throw new IllegalArgumentException("no Beam type for " + column.getType());
          };
      schema.addField(
          Schema.Field.of(column.getName(), type)
              .withNullable(!"REQUIRED".equals(column.getMode())));
    }
    return schema.build();
  }
}
