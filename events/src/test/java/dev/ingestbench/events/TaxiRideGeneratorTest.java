package dev.ingestbench.events;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TaxiRideGeneratorTest {

  @ParameterizedTest
  @ValueSource(ints = {300, 500, 1_000, 10_000, 100_000})
  void messagesAreWithinFivePercentOfTheRequestedSize(int size) {
    TaxiRideGenerator generator = new TaxiRideGenerator(42, size);
    for (long i = 0; i < 2_000; i += 7) {
      int actual = generator.message(i).length;
      assertTrue(
          Math.abs(actual - size) <= size * 0.05,
          "message " + i + " is " + actual + " bytes, requested " + size);
    }
  }

  @Test
  void sameSeedAndIndexGiveTheSameBytes() {
    TaxiRideGenerator a = new TaxiRideGenerator(7, 500);
    TaxiRideGenerator b = new TaxiRideGenerator(7, 500);
    for (long i = 0; i < 1_000; i++) {
      assertArrayEquals(a.message(i), b.message(i));
    }
  }

  @Test
  void differentSeedsGiveDifferentEvents() {
    TaxiRideGenerator a = new TaxiRideGenerator(1, 500);
    TaxiRideGenerator b = new TaxiRideGenerator(2, 500);
    assertFalse(Arrays.equals(a.message(5), b.message(5)));
  }

  @Test
  void messagesParseBackToTheGeneratedEventWithItsPadding() {
    TaxiRideGenerator generator = new TaxiRideGenerator(3, 10_000);
    TaxiRide parsed = TaxiRideJson.parse(generator.message(123));
    TaxiRide event = generator.event(123);
    assertEquals(event.rideId(), parsed.rideId());
    assertEquals(event.latitude(), parsed.latitude());
    assertEquals(event.timestamp(), parsed.timestamp());
    assertNotNull(parsed.padding());
    assertTrue(parsed.padding().length() > 9_000);
  }

  @Test
  void splicedPaddingIsByteForByteWhatJacksonWrites() {
    TaxiRideGenerator generator = new TaxiRideGenerator(9, 1_000);
    for (long i = 0; i < 200; i++) {
      TaxiRide parsed = TaxiRideJson.parse(generator.message(i));
      assertArrayEquals(TaxiRideJson.toBytes(parsed), generator.message(i));
    }
  }

  @Test
  void smallSizesAreNotPadded() {
    TaxiRide parsed = TaxiRideJson.parse(new TaxiRideGenerator(3, 100).message(9));
    assertNull(parsed.padding());
  }

  @Test
  void eventsUseEveryStatusAndPlausibleValues() {
    TaxiRideGenerator generator = new TaxiRideGenerator(11, 500);
    Set<String> statuses = new HashSet<>();
    for (long i = 0; i < 1_000; i++) {
      TaxiRide ride = generator.event(i);
      statuses.add(ride.rideStatus());
      assertTrue(ride.passengerCount() >= 1 && ride.passengerCount() <= 6);
      assertTrue(Math.abs(ride.latitude() - 1.35) <= 0.1 + 1e-9);
      assertTrue(ride.timestamp().endsWith("+00:00"), ride.timestamp());
    }
    assertEquals(TaxiRide.STATUSES.length, statuses.size());
  }

  @Test
  void rejectsANonPositiveSizeNamingTheFlag() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new TaxiRideGenerator(1, 0));
    assertTrue(e.getMessage().contains("--messageSizeBytes"));
  }
}
