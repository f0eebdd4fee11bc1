package dev.ingestbench.consumer.rows;

import com.google.api.services.bigquery.model.TableRow;
import dev.ingestbench.contracts.job.RowFormat;
import dev.ingestbench.events.MalformedEventException;
import dev.ingestbench.events.MessageAttributes;
import dev.ingestbench.events.MessageFormat;
import dev.ingestbench.events.TaxiRide;
import java.util.Map;

/**
 * Turns one message into one BigQuery {@link TableRow} ({@code --rowEncoding=tablerow}): the
 * consumer's per-row work, as a plain function so tests and JMH call exactly what the pipeline
 * runs.
 *
 * <p>TIMESTAMP columns are filled with epoch microseconds ({@code Long}), the form Beam's
 * TableRow-to-proto conversion takes without parsing text.
 */
public final class MessageToRow {
  private MessageToRow() {}

  /**
   * The row for {@code payload} in {@code format}.
   *
   * @throws MalformedEventException naming what is wrong, for the dead-letter table
   */
  public static TableRow convert(RowFormat format, MessageMetadata metadata, byte[] payload) {
    return convert(MessageFormat.JSON, format, metadata, payload);
  }

  /**
   * The row for a {@code message}-format {@code payload} in {@code format}.
   *
   * @throws MalformedEventException naming what is wrong, for the dead-letter table
   */
  public static TableRow convert(
      MessageFormat message, RowFormat format, MessageMetadata metadata, byte[] payload) {
    TableRow row = metadataRow(metadata);
    switch (format) {
      case JSON_COLUMN -> {
        row.set(RowSchemas.ATTRIBUTES, JsonChecks.attributesJson(metadata.attributes()));
        row.set(RowSchemas.PAYLOAD, JsonChecks.payloadJson(message, payload));
      }
      case TYPED -> {
        TaxiRide ride = EventChecks.parse(message, payload);
        row.set("ride_id", ride.rideId())
            .set("ride_status", ride.rideStatus())
            .set("latitude", ride.latitude())
            .set("longitude", ride.longitude())
            .set("passenger_count", (long) ride.passengerCount())
            .set("meter_reading", ride.meterReading())
            .set("meter_increment", ride.meterIncrement())
            .set("point_idx", (long) ride.pointIdx())
            .set("timestamp", ride.timestamp());
        if (ride.padding() != null) {
          row.set("_padding", ride.padding());
        }
      }
      default -> throw new IllegalArgumentException("unknown row format " + format);
    }
    return row;
  }

  /**
   * The event index attribute, or null when the message has none. It must be written as the
   * publisher writes it: decimal digits, no sign, no leading zero. Otherwise {@code 007} and {@code
   * 7} would be one event to the verifier and two to anyone reading the attribute.
   *
   * @throws MalformedEventException when the attribute is there but not such a number
   */
  public static Long eventIndex(Map<String, String> attributes) {
    String value = attributes == null ? null : attributes.get(MessageAttributes.EVENT_INDEX);
    if (value == null) {
      return null;
    }
    boolean digits =
        !value.isEmpty()
            && value.length() <= 19
            && value.chars().allMatch(c -> c >= '0' && c <= '9');
    if (!digits || (value.length() > 1 && value.charAt(0) == '0')) {
      throw new MalformedEventException(
          "attribute "
              + MessageAttributes.EVENT_INDEX
              + "='"
              + value
              + "' is not"
              + " an event index: write it as the publisher does, decimal digits without a sign or leading zeros"
              + " (0, 7, 1234)");
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new MalformedEventException(
          "attribute "
              + MessageAttributes.EVENT_INDEX
              + "='"
              + value
              + "' is larger than an INT64 event index can be");
    }
  }

  private static TableRow metadataRow(MessageMetadata metadata) {
    TableRow row =
        new TableRow()
            .set(RowSchemas.SUBSCRIPTION_NAME, metadata.subscriptionName())
            .set(RowSchemas.MESSAGE_ID, metadata.messageId())
            .set(RowSchemas.PUBLISH_TIME, metadata.publishMicros())
            .set(RowSchemas.PROCESSING_TIME, metadata.processingMicros());
    Long index = eventIndex(metadata.attributes());
    if (index != null) {
      row.set(RowSchemas.EVENT_INDEX, index);
    }
    return row;
  }
}
