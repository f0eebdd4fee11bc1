package dev.ingestbench.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One taxi-ride event, the payload every ingestbench message carries.
 *
 * <p>The field names are the JSON keys of the published investigation's messages, so rows written
 * by ingestbench can be compared with theirs. {@code padding} is only present when a message is
 * padded to a larger size (for example the ~10 KB rounds).
 */
@JsonPropertyOrder({
  "ride_id",
  "ride_status",
  "latitude",
  "longitude",
  "passenger_count",
  "meter_reading",
  "meter_increment",
  "point_idx",
  "timestamp",
  "_padding"
})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TaxiRide(
    @JsonProperty(value = "ride_id", required = true) String rideId,
    @JsonProperty(value = "ride_status", required = true) String rideStatus,
    @JsonProperty(value = "latitude", required = true) double latitude,
    @JsonProperty(value = "longitude", required = true) double longitude,
    @JsonProperty(value = "passenger_count", required = true) int passengerCount,
    @JsonProperty(value = "meter_reading", required = true) double meterReading,
    @JsonProperty(value = "meter_increment", required = true) double meterIncrement,
    @JsonProperty(value = "point_idx", required = true) int pointIdx,
    @JsonProperty(value = "timestamp", required = true) String timestamp,
    @JsonProperty("_padding") String padding) {

  /** The same event without its padding: what two messages of different sizes share. */
  public TaxiRide withoutPadding() {
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
        null);
  }

  /** The ride statuses the generator draws from; dynamic destinations route on them. */
  public static final String[] STATUSES = {"enroute", "pickup", "dropoff", "waiting"};
}
