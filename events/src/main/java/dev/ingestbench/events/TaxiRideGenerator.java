package dev.ingestbench.events;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Deterministic synthetic taxi-ride events.
 *
 * <p>Event {@code i} depends only on the seed and {@code i}, so any worker can generate any slice
 * of a run and two runs with the same seed publish the same bytes. Messages are padded with a
 * {@code _padding} field to the requested size (JSON ±5%, Avro exactly); the unpadded event is ~250
 * bytes of JSON or ~88 bytes of Avro.
 */
public final class TaxiRideGenerator {

  /** Rides start here (Singapore, where the reference rounds ran) and wander a few kilometres. */
  private static final double BASE_LATITUDE = 1.35;

  private static final double BASE_LONGITUDE = 103.82;

  /** Event times are spread over one day from a fixed origin so output is reproducible. */
  private static final long ORIGIN_EPOCH_SECONDS = 1_770_854_400L; // 2026-02-12T00:00:00Z

  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSxxx").withZone(ZoneOffset.UTC);

  /** Bytes that {@code ,"_padding":""} adds around the padding characters. */
  private static final int PADDING_FIELD_OVERHEAD = ",\"_padding\":\"\"".length();

  private static final byte[] PADDING_FIELD_OPEN =
      ",\"_padding\":\"".getBytes(StandardCharsets.US_ASCII);

  private final long seed;
  private final int messageSizeBytes;
  private final MessageFormat format;

  /** JSON messages. */
  public TaxiRideGenerator(long seed, int messageSizeBytes) {
    this(seed, messageSizeBytes, MessageFormat.JSON);
  }

  public TaxiRideGenerator(long seed, int messageSizeBytes, MessageFormat format) {
    if (messageSizeBytes <= 0) {
      throw new IllegalArgumentException(
          "--messageSizeBytes=" + messageSizeBytes + " must be positive, e.g. 500 or 10000");
    }
    this.seed = seed;
    this.messageSizeBytes = messageSizeBytes;
    this.format = format;
  }

  public MessageFormat format() {
    return format;
  }

  /** The event with index {@code index}, unpadded. */
  public TaxiRide event(long index) {
    SplittableRandom random = new SplittableRandom(mix(seed, index));
    long ride = index / 100; // ~100 points per ride, like a real trip's GPS trace
    int pointIdx = (int) (index % 100) * 16 + random.nextInt(16);
    double meterIncrement = round(0.01 + random.nextDouble() * 0.04, 4);
    Instant at =
        Instant.ofEpochSecond(
            ORIGIN_EPOCH_SECONDS + (index % 86_400), random.nextInt(1_000_000) * 1_000L);
    return new TaxiRide(
        "ride-" + ride,
        TaxiRide.STATUSES[random.nextInt(TaxiRide.STATUSES.length)],
        round(BASE_LATITUDE + random.nextDouble() * 0.2 - 0.1, 6),
        round(BASE_LONGITUDE + random.nextDouble() * 0.2 - 0.1, 6),
        1 + random.nextInt(6),
        round(pointIdx * meterIncrement, 2),
        meterIncrement,
        pointIdx,
        TIMESTAMP.format(at),
        null);
  }

  /** The bytes of event {@code index} in the configured format, padded to the configured size. */
  public byte[] message(long index) {
    return format == MessageFormat.AVRO ? avroMessage(index) : jsonMessage(index);
  }

  private byte[] avroMessage(long index) {
    TaxiRide ride = event(index);
    byte[] unpadded = TaxiRideAvro.toBytes(ride);
    // Padding adds its characters plus their length's varint (the union branch byte is there either
    // way).
    int paddingChars = messageSizeBytes - unpadded.length;
    while (paddingChars > 0
        && paddingChars + varintBytes(paddingChars) > messageSizeBytes - unpadded.length) {
      paddingChars--;
    }
    if (paddingChars <= 0) {
      return unpadded;
    }
    return TaxiRideAvro.toBytes(
        new TaxiRide(
            ride.rideId(),
            ride.rideStatus(),
            ride.latitude(),
            ride.longitude(),
            ride.passengerCount(),
            ride.meterReading(),
            ride.meterIncrement(),
            ride.pointIdx(),
            ride.timestamp(),
            "x".repeat(paddingChars)));
  }

  /** Bytes of Avro's zig-zag varint for a non-negative {@code value}. */
  private static int varintBytes(long value) {
    long zigzag = value << 1;
    int bytes = 1;
    while ((zigzag >>>= 7) != 0) {
      bytes++;
    }
    return bytes;
  }

  private byte[] jsonMessage(long index) {
    TaxiRide ride = event(index);
    byte[] unpadded = TaxiRideJson.toBytes(ride);
    int paddingChars = messageSizeBytes - unpadded.length - PADDING_FIELD_OVERHEAD;
    if (paddingChars <= 0) {
      return unpadded;
    }
    // Splice the padding in as the last field instead of serialising the event again: the bytes are
    // the same as Jackson's (the test pins that), at a fraction of the cost per message.
    byte[] padded = new byte[unpadded.length + PADDING_FIELD_OVERHEAD + paddingChars];
    int at = unpadded.length - 1; // before the closing brace
    System.arraycopy(unpadded, 0, padded, 0, at);
    System.arraycopy(PADDING_FIELD_OPEN, 0, padded, at, PADDING_FIELD_OPEN.length);
    at += PADDING_FIELD_OPEN.length;
    Arrays.fill(padded, at, at + paddingChars, (byte) 'x');
    at += paddingChars;
    padded[at++] = '"';
    padded[at] = '}';
    return padded;
  }

  private static long mix(long seed, long index) {
    // SplitMix64 finaliser: neighbouring indexes get unrelated streams.
    long z = seed * 0x9E3779B97F4A7C15L + index;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private static double round(double value, int decimals) {
    double scale = Math.pow(10, decimals);
    return Math.round(value * scale) / scale;
  }
}
