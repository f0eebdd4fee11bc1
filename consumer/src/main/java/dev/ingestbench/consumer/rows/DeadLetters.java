package dev.ingestbench.consumer.rows;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.google.api.services.bigquery.model.TableRow;
import dev.ingestbench.events.TaxiRideJson;
import java.nio.charset.StandardCharsets;

/** Builds dead-letter rows: the raw input, the reason, the stage that failed and when. */
public final class DeadLetters {
  /** The message could not be turned into a row. */
  public static final String STAGE_PARSE = "parse";
  /** BigQuery (or Beam's row-to-proto conversion) rejected the row. */
  public static final String STAGE_BIGQUERY = "bigquery";

  private DeadLetters() {}

  /** A message that failed to parse. */
  public static TableRow forMessage(
      MessageMetadata metadata, Long eventIndex, byte[] payload, String error, long failedAtMicros) {
    TableRow row =
        new TableRow()
            .set(RowSchemas.SUBSCRIPTION_NAME, metadata.subscriptionName())
            .set(RowSchemas.MESSAGE_ID, metadata.messageId())
            .set(RowSchemas.PUBLISH_TIME, metadata.publishMicros())
            .set(RowSchemas.FAILED_AT, failedAtMicros)
            .set(RowSchemas.ERROR_STAGE, STAGE_PARSE)
            .set(RowSchemas.ERROR, error)
            .set(RowSchemas.ATTRIBUTES, JsonChecks.attributesJson(metadata.attributes()))
            .set(RowSchemas.PAYLOAD, new String(payload, StandardCharsets.UTF_8));
    if (eventIndex != null) {
      row.set(RowSchemas.EVENT_INDEX, eventIndex);
    }
    return row;
  }

  /** A row the write rejected; keeps its identifying columns and the whole row as the payload. */
  public static TableRow forRejectedRow(TableRow rejected, String error, long failedAtMicros) {
    if (rejected == null) {
      rejected = new TableRow(); // the write kept no copy of the row (e.g. proto rows)
    }
    TableRow row =
        new TableRow()
            .set(RowSchemas.FAILED_AT, failedAtMicros)
            .set(RowSchemas.ERROR_STAGE, STAGE_BIGQUERY)
            .set(RowSchemas.ERROR, error == null ? "rejected without a message" : error)
            .set(RowSchemas.PAYLOAD, toJson(rejected));
    copy(rejected, row, RowSchemas.SUBSCRIPTION_NAME);
    copy(rejected, row, RowSchemas.MESSAGE_ID);
    copy(rejected, row, RowSchemas.EVENT_INDEX);
    copy(rejected, row, RowSchemas.PUBLISH_TIME);
    copy(rejected, row, RowSchemas.ATTRIBUTES);
    return row;
  }

  private static void copy(TableRow from, TableRow to, String column) {
    Object value = from.get(column);
    if (value != null) {
      to.set(column, value instanceof Number || value instanceof String ? value : value.toString());
    }
  }

  private static String toJson(TableRow row) {
    try {
      return TaxiRideJson.MAPPER.writeValueAsString(row);
    } catch (JsonProcessingException e) {
      return String.valueOf(row);
    }
  }
}
