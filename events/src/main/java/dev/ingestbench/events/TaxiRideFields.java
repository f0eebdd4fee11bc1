package dev.ingestbench.events;

/**
 * Receives a decoded taxi-ride event field by field, in schema order, so a decoder can fill any
 * target (a {@link TaxiRide}, a protobuf builder) without an object in between.
 */
public interface TaxiRideFields {
  void rideId(String value);

  void rideStatus(String value);

  void latitude(double value);

  void longitude(double value);

  void passengerCount(int value);

  void meterReading(double value);

  void meterIncrement(double value);

  void pointIdx(int value);

  void timestamp(String value);

  /**
   * The timestamp with its epoch microseconds, when the reader has computed them (the consumer's
   * checks do), so that a target does not parse the text again; by default {@link
   * #timestamp(String)}.
   */
  default void timestamp(String value, long epochMicros) {
    timestamp(value);
  }

  /** Called only when the message carries padding. */
  void padding(String value);
}
