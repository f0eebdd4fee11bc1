package dev.ingestbench.consumer.rows;

import dev.ingestbench.contracts.job.RowFormat;
import dev.ingestbench.events.MessageFormat;
import dev.ingestbench.events.TaxiRide;
import dev.ingestbench.events.TaxiRideCollector;
import java.time.Instant;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.values.Row;

/** One message as a Beam {@link Row} ({@code --rowEncoding=beam-row}). */
public final class MessageToBeamRow {
  private static final Schema JSON_COLUMN = BeamSchemas.forFormat(RowFormat.JSON_COLUMN);
  private static final Schema TYPED = BeamSchemas.forFormat(RowFormat.TYPED);

  private MessageToBeamRow() {}

  public static Schema schema(RowFormat format) {
    return format == RowFormat.TYPED ? TYPED : JSON_COLUMN;
  }

  /**
   * @throws dev.ingestbench.events.MalformedEventException naming what is wrong
   */
  public static Row convert(RowFormat format, MessageMetadata metadata, byte[] payload) {
    return convert(MessageFormat.JSON, format, metadata, payload);
  }

  /**
   * @throws dev.ingestbench.events.MalformedEventException naming what is wrong
   */
  public static Row convert(
      MessageFormat message, RowFormat format, MessageMetadata metadata, byte[] payload) {
    Long index = MessageToRow.eventIndex(metadata.attributes());
    Instant published = micros(metadata.publishMicros());
    Instant processed = micros(metadata.processingMicros());
    return switch (format) {
      case JSON_COLUMN -> {
        String json = JsonChecks.payloadJson(message, payload);
        yield Row.withSchema(JSON_COLUMN)
            .addValues(
                metadata.subscriptionName(),
                metadata.messageId(),
                index,
                published,
                processed,
                JsonChecks.attributesJson(metadata.attributes()),
                json)
            .build();
      }
      case TYPED -> {
        TaxiRideCollector read = new TaxiRideCollector();
        EventChecks.read(
            message, payload, read); // checks the timestamp, and keeps its microseconds
        TaxiRide ride = read.build();
        yield Row.withSchema(TYPED)
            .addValues(
                metadata.subscriptionName(),
                metadata.messageId(),
                index,
                published,
                processed,
                ride.rideId(),
                ride.rideStatus(),
                ride.latitude(),
                ride.longitude(),
                (long) ride.passengerCount(),
                ride.meterReading(),
                ride.meterIncrement(),
                (long) ride.pointIdx(),
                micros(read.timestampMicros()),
                ride.padding())
            .build();
      }
    };
  }

  private static Instant micros(long epochMicros) {
    return Instant.ofEpochSecond(
        Math.floorDiv(epochMicros, 1_000_000L), Math.floorMod(epochMicros, 1_000_000L) * 1_000L);
  }
}
