package dev.ingestbench.events;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** How a taxi-ride event is written into a message ({@code --messageFormat}). */
public enum MessageFormat {
  /**
   * JSON text, ~250 bytes unpadded (the reference rounds' ~500 B and 10 KB messages are padded).
   */
  JSON,
  /**
   * Avro binary of {@code taxi_ride.avsc}, ~88 bytes unpadded (the reference's production shape).
   */
  AVRO;

  public String flag() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses {@code value} (any case); an unknown one names the flag and the choices. */
  public static MessageFormat fromFlag(String flag, String value) {
    for (MessageFormat format : values()) {
      if (format.flag().equalsIgnoreCase(value == null ? "" : value.trim())) {
        return format;
      }
    }
    throw new IllegalArgumentException(
        flag
            + "="
            + value
            + " is not a message format; use one of "
            + Arrays.stream(values()).map(MessageFormat::flag).collect(Collectors.joining(", ")));
  }

  /** The payload as an event, for the routes that want a {@link TaxiRide}. */
  public TaxiRide parse(byte[] payload) {
    return this == AVRO ? TaxiRideAvro.parse(payload) : TaxiRideJson.parse(payload);
  }
}
