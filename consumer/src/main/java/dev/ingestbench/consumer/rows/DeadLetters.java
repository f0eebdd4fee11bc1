package dev.ingestbench.consumer.rows;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.google.api.services.bigquery.model.TableRow;
import dev.ingestbench.events.TaxiRideJson;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * Builds dead-letter rows: the raw input byte for byte (a BYTES column, base64 in a TableRow), its
 * size, the reason, the stage that refused it and when.
 */
public final class DeadLetters {
  /** The message is larger than {@code --maxMessageBytes}: its row could not be appended. */
  public static final String STAGE_SIZE = "size";

  /** The message's bytes are not the text its format needs (JSON: UTF-8). */
  public static final String STAGE_DECODE = "decode";

  /** The message could not be turned into a row. */
  public static final String STAGE_PARSE = "parse";

  /** BigQuery (or Beam's row-to-proto conversion) rejected the row. */
  public static final String STAGE_BIGQUERY = "bigquery";

  /** How much of an oversized message its dead letter keeps: enough to see what it was. */
  public static final int OVERSIZED_PAYLOAD_KEPT = 65_536;

  private DeadLetters() {}

  /** A message refused before it became a row, at {@code stage}. */
  public static TableRow forMessage(
      MessageMetadata metadata,
      Long eventIndex,
      byte[] payload,
      String stage,
      String error,
      long failedAtMicros) {
    byte[] kept =
        stage.equals(STAGE_SIZE) && payload.length > OVERSIZED_PAYLOAD_KEPT
            ? Arrays.copyOf(payload, OVERSIZED_PAYLOAD_KEPT)
            : payload;
    TableRow row =
        new TableRow()
            .set(RowSchemas.SUBSCRIPTION_NAME, metadata.subscriptionName())
            .set(RowSchemas.MESSAGE_ID, metadata.messageId())
            .set(RowSchemas.PUBLISH_TIME, metadata.publishMicros())
            .set(RowSchemas.FAILED_AT, failedAtMicros)
            .set(RowSchemas.ERROR_STAGE, stage)
            .set(RowSchemas.ERROR, error)
            .set(RowSchemas.ATTRIBUTES, JsonChecks.attributesJson(metadata.attributes()))
            .set(RowSchemas.PAYLOAD, Base64.getEncoder().encodeToString(kept))
            .set(RowSchemas.PAYLOAD_BYTES, (long) payload.length);
    if (eventIndex != null) {
      row.set(RowSchemas.EVENT_INDEX, eventIndex);
    }
    return row;
  }

  /**
   * A row the write rejected; keeps its identifying columns and the whole row, as JSON, as the
   * payload (the write holds the row, not the message it came from).
   */
  public static TableRow forRejectedRow(TableRow rejected, String error, long failedAtMicros) {
    if (rejected == null) {
      rejected = new TableRow(); // the write kept no copy of the row (e.g. proto rows)
    }
    byte[] json = toJson(rejected).getBytes(StandardCharsets.UTF_8);
    TableRow row =
        new TableRow()
            .set(RowSchemas.FAILED_AT, failedAtMicros)
            .set(RowSchemas.ERROR_STAGE, STAGE_BIGQUERY)
            .set(RowSchemas.ERROR, error == null ? "rejected without a message" : error)
            .set(RowSchemas.PAYLOAD, Base64.getEncoder().encodeToString(json))
            .set(RowSchemas.PAYLOAD_BYTES, (long) json.length);
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
