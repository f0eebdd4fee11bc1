package dev.ingestbench.consumer.rows;

import dev.ingestbench.events.MalformedEventException;
import dev.ingestbench.events.MessageFormat;
import dev.ingestbench.events.TaxiRide;
import dev.ingestbench.events.TaxiRideAvro;
import dev.ingestbench.events.TaxiRideCollector;
import dev.ingestbench.events.TaxiRideFields;
import dev.ingestbench.events.TaxiRideJson;
import java.util.Locale;

/**
 * The one validation of a message's event, shared by every row format and encoding: whichever route
 * is chosen, a message either becomes a row or is dead-lettered at {@code parse} with the same
 * reason (MalformedMessagesEveryRouteTest runs one malformed set through every route). Besides the
 * wire form's own rules (one object, required fields, types: {@link TaxiRideJson#read}, {@link
 * TaxiRideAvro#read}), each value must be one BigQuery can store as the typed row would hold it:
 *
 * <ul>
 *   <li>text without a lone UTF-16 surrogate (a JSON escape such as {@code \ud800} can make one; it
 *       has no UTF-8 form, so protobuf would send it changed and BigQuery would not store it as
 *       sent);
 *   <li>a timestamp in ISO-8601 with an offset, within BigQuery's TIMESTAMP range (years 1 to
 *       9999).
 * </ul>
 *
 * <p>A JSON-column row holds the message's text, but the text must still be a valid event: a route
 * that stored what another route refuses would make the choice of encoding change which messages
 * land.
 */
public final class EventChecks {
  /**
   * 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z in epoch microseconds: BigQuery's
   * TIMESTAMP range.
   */
  static final long MIN_TIMESTAMP_MICROS = -62_135_596_800_000_000L;

  static final long MAX_TIMESTAMP_MICROS = 253_402_300_799_999_999L;

  /** Checks the event and keeps nothing: for routes that store the message's own text. */
  static final TaxiRideFields DISCARD = new Discard();

  private EventChecks() {}

  /**
   * Reads a {@code format} payload into {@code target}, every value checked first.
   *
   * @throws MalformedEventException naming what is wrong
   */
  public static void read(MessageFormat format, byte[] payload, TaxiRideFields target) {
    Checked checked = new Checked(target);
    if (format == MessageFormat.AVRO) {
      TaxiRideAvro.read(payload, checked);
    } else {
      TaxiRideJson.read(payload, checked);
    }
  }

  /**
   * The event of a {@code format} payload, every value checked.
   *
   * @throws MalformedEventException naming what is wrong
   */
  public static TaxiRide parse(MessageFormat format, byte[] payload) {
    TaxiRideCollector ride = new TaxiRideCollector();
    read(format, payload, ride);
    return ride.build();
  }

  /** Keeps nothing. */
  private static final class Discard implements TaxiRideFields {
    @Override
    public void rideId(String value) {}

    @Override
    public void rideStatus(String value) {}

    @Override
    public void latitude(double value) {}

    @Override
    public void longitude(double value) {}

    @Override
    public void passengerCount(int value) {}

    @Override
    public void meterReading(double value) {}

    @Override
    public void meterIncrement(double value) {}

    @Override
    public void pointIdx(int value) {}

    @Override
    public void timestamp(String value) {}

    @Override
    public void padding(String value) {}
  }

  /** Checks each value, then hands it on. */
  private record Checked(TaxiRideFields target) implements TaxiRideFields {
    @Override
    public void rideId(String value) {
      target.rideId(text("ride_id", value));
    }

    @Override
    public void rideStatus(String value) {
      target.rideStatus(text("ride_status", value));
    }

    @Override
    public void latitude(double value) {
      target.latitude(value);
    }

    @Override
    public void longitude(double value) {
      target.longitude(value);
    }

    @Override
    public void passengerCount(int value) {
      target.passengerCount(value);
    }

    @Override
    public void meterReading(double value) {
      target.meterReading(value);
    }

    @Override
    public void meterIncrement(double value) {
      target.meterIncrement(value);
    }

    @Override
    public void pointIdx(int value) {
      target.pointIdx(value);
    }

    @Override
    public void timestamp(String value) {
      // Parsed once here; the target takes the microseconds instead of parsing the text again.
      target.timestamp(value, timestampMicros(text("timestamp", value)));
    }

    @Override
    public void padding(String value) {
      target.padding(text("_padding", value));
    }
  }

  /**
   * An event timestamp as epoch microseconds, checked to be one BigQuery stores.
   *
   * @throws MalformedEventException naming what is wrong
   */
  private static long timestampMicros(String value) {
    long micros = EventTimestamps.toMicros(value);
    if (micros < MIN_TIMESTAMP_MICROS || micros > MAX_TIMESTAMP_MICROS) {
      throw new MalformedEventException(
          "payload is not a taxi-ride event: timestamp '"
              + value
              + "' is outside BigQuery's TIMESTAMP range (0001-01-01 to 9999-12-31 UTC)");
    }
    return micros;
  }

  private static String text(String field, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (Character.isSurrogate(c)) {
        boolean paired =
            Character.isHighSurrogate(c)
                && i + 1 < value.length()
                && Character.isLowSurrogate(value.charAt(i + 1));
        if (!paired) {
          throw new MalformedEventException(
              String.format(
                  Locale.ROOT,
                  "payload is not a taxi-ride event: '%s'"
                      + " holds a lone UTF-16 surrogate \\u%04X at character %d: it has no UTF-8 form, so BigQuery"
                      + " cannot store the text as sent",
                  field,
                  (int) c,
                  i));
        }
        i++;
      }
    }
    return value;
  }
}
