package dev.ingestbench.events;

/**
 * Collects decoded fields into a {@link TaxiRide}: for readers that want the event as an object.
 */
public final class TaxiRideCollector implements TaxiRideFields {
  private String rideId;
  private String rideStatus;
  private double latitude;
  private double longitude;
  private int passengerCount;
  private double meterReading;
  private double meterIncrement;
  private int pointIdx;
  private String timestamp;
  private long timestampMicros = Long.MIN_VALUE;
  private String padding;

  @Override
  public void rideId(String value) {
    rideId = value;
  }

  @Override
  public void rideStatus(String value) {
    rideStatus = value;
  }

  @Override
  public void latitude(double value) {
    latitude = value;
  }

  @Override
  public void longitude(double value) {
    longitude = value;
  }

  @Override
  public void passengerCount(int value) {
    passengerCount = value;
  }

  @Override
  public void meterReading(double value) {
    meterReading = value;
  }

  @Override
  public void meterIncrement(double value) {
    meterIncrement = value;
  }

  @Override
  public void pointIdx(int value) {
    pointIdx = value;
  }

  @Override
  public void timestamp(String value) {
    timestamp = value;
  }

  @Override
  public void padding(String value) {
    padding = value;
  }

  @Override
  public void timestamp(String value, long epochMicros) {
    timestamp = value;
    timestampMicros = epochMicros;
  }

  /**
   * The timestamp's epoch microseconds as the reader gave them; Long.MIN_VALUE when it gave none.
   */
  public long timestampMicros() {
    return timestampMicros;
  }

  public TaxiRide build() {
    return new TaxiRide(
        rideId,
        rideStatus,
        latitude,
        longitude,
        passengerCount,
        meterReading,
        meterIncrement,
        pointIdx,
        timestamp,
        padding);
  }
}
