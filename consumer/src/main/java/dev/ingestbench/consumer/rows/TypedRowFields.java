package dev.ingestbench.consumer.rows;

import dev.ingestbench.consumer.rows.proto.TypedRow;
import dev.ingestbench.events.TaxiRideFields;

/**
 * Decoded Avro fields straight into a typed protobuf row: the Avro-to-proto route of {@code
 * --rowEncoding=proto}.
 */
final class TypedRowFields implements TaxiRideFields {
  private final TypedRow.Builder row;

  TypedRowFields(TypedRow.Builder row) {
    this.row = row;
  }

  @Override
  public void rideId(String value) {
    row.setRideId(value);
  }

  @Override
  public void rideStatus(String value) {
    row.setRideStatus(value);
  }

  @Override
  public void latitude(double value) {
    row.setLatitude(value);
  }

  @Override
  public void longitude(double value) {
    row.setLongitude(value);
  }

  @Override
  public void passengerCount(int value) {
    row.setPassengerCount(value);
  }

  @Override
  public void meterReading(double value) {
    row.setMeterReading(value);
  }

  @Override
  public void meterIncrement(double value) {
    row.setMeterIncrement(value);
  }

  @Override
  public void pointIdx(int value) {
    row.setPointIdx(value);
  }

  @Override
  public void timestamp(String value) {
    row.setTimestamp(EventTimestamps.toMicros(value));
  }

  @Override
  public void timestamp(String value, long epochMicros) {
    row.setTimestamp(epochMicros);
  }

  @Override
  public void padding(String value) {
    row.setPadding(value);
  }
}
