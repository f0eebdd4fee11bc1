package dev.ingestbench.consumer.rows;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableSchema;
import dev.ingestbench.contracts.RowKeyColumns;
import dev.ingestbench.contracts.job.RowFormat;
import java.util.ArrayList;
import java.util.List;

/** BigQuery schemas of the row formats and of the dead-letter table. */
public final class RowSchemas {
  /** Columns every format shares: where the message came from and when. */
  public static final String SUBSCRIPTION_NAME = "subscription_name";

  public static final String MESSAGE_ID = RowKeyColumns.MESSAGE_ID;

  /**
   * The publisher's event index: lets a table be checked for loss and duplicates with one query.
   */
  public static final String EVENT_INDEX = RowKeyColumns.EVENT_INDEX;

  public static final String PUBLISH_TIME = RowKeyColumns.PUBLISH_TIME;
  public static final String PROCESSING_TIME = "processing_time";
  public static final String ATTRIBUTES = "attributes";
  public static final String PAYLOAD = "payload";

  /** A dead letter's message size: more than its payload holds when the message was oversized. */
  public static final String PAYLOAD_BYTES = "payload_bytes";

  public static final String FAILED_AT = "failed_at";
  public static final String ERROR_STAGE = "error_stage";
  public static final String ERROR = RowKeyColumns.ERROR;

  private RowSchemas() {}

  public static TableSchema forFormat(RowFormat format) {
    List<TableFieldSchema> fields = new ArrayList<>(metadata());
    switch (format) {
      case JSON_COLUMN -> {
        fields.add(field(ATTRIBUTES, "STRING", "NULLABLE"));
        fields.add(field(PAYLOAD, "JSON", "NULLABLE"));
      }
      case TYPED -> {
        fields.add(field("ride_id", "STRING", "REQUIRED"));
        fields.add(field("ride_status", "STRING", "REQUIRED"));
        fields.add(field("latitude", "FLOAT64", "REQUIRED"));
        fields.add(field("longitude", "FLOAT64", "REQUIRED"));
        fields.add(field("passenger_count", "INT64", "REQUIRED"));
        fields.add(field("meter_reading", "FLOAT64", "REQUIRED"));
        fields.add(field("meter_increment", "FLOAT64", "REQUIRED"));
        fields.add(field("point_idx", "INT64", "REQUIRED"));
        fields.add(field("timestamp", "TIMESTAMP", "REQUIRED"));
        fields.add(field("_padding", "STRING", "NULLABLE"));
      }
      default -> throw new IllegalArgumentException("no schema for " + format);
    }
    return new TableSchema().setFields(fields);
  }

  /**
   * The dead-letter table: the raw message byte for byte (BYTES: invalid UTF-8 stays what was
   * sent), its size, why it failed, at which stage and when.
   */
  public static TableSchema deadLetter() {
    return new TableSchema()
        .setFields(
            List.of(
                field(SUBSCRIPTION_NAME, "STRING", "NULLABLE"),
                field(MESSAGE_ID, "STRING", "NULLABLE"),
                field(EVENT_INDEX, "INT64", "NULLABLE"),
                field(PUBLISH_TIME, "TIMESTAMP", "NULLABLE"),
                field(FAILED_AT, "TIMESTAMP", "REQUIRED"),
                field(ERROR_STAGE, "STRING", "REQUIRED"),
                field(ERROR, "STRING", "REQUIRED"),
                field(ATTRIBUTES, "STRING", "NULLABLE"),
                field(PAYLOAD, "BYTES", "NULLABLE"),
                field(PAYLOAD_BYTES, "INT64", "NULLABLE")));
  }

  private static List<TableFieldSchema> metadata() {
    return List.of(
        field(SUBSCRIPTION_NAME, "STRING", "REQUIRED"),
        field(MESSAGE_ID, "STRING", "REQUIRED"),
        field(EVENT_INDEX, "INT64", "NULLABLE"),
        field(PUBLISH_TIME, "TIMESTAMP", "REQUIRED"),
        field(PROCESSING_TIME, "TIMESTAMP", "REQUIRED"));
  }

  private static TableFieldSchema field(String name, String type, String mode) {
    return new TableFieldSchema().setName(name).setType(type).setMode(mode);
  }
}
