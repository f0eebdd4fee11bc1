package dev.ingestbench.pubsubload;

import com.google.protobuf.ByteString;
import com.google.pubsub.v1.PubsubMessage;
import java.time.Instant;
import java.util.Random;

/**
 * The messages a load test publishes: a fixed random payload of the configured size
 * (incompressible, built once) and two attributes, as in Google's load-test framework: a sequence
 * number, for missing and duplicate counts, and the publish time, for end-to-end latency.
 */
final class LoadMessages {
  static final String SEQUENCE = "sequence_number";
  static final String SENT_AT_MICROS = "send_time_us";

  /**
   * Which test published it: another test's messages in the same subscription are foreign, not
   * duplicates.
   */
  static final String RUN = "load_test_run";

  private final ByteString payload;
  private final String run;

  LoadMessages(int sizeBytes, String run) {
    byte[] bytes = new byte[sizeBytes];
    new Random(42).nextBytes(bytes);
    this.payload = ByteString.copyFrom(bytes);
    this.run = run;
  }

  PubsubMessage message(long sequence) {
    return PubsubMessage.newBuilder()
        .setData(payload)
        .putAttributes(RUN, run)
        .putAttributes(SEQUENCE, Long.toString(sequence))
        .putAttributes(SENT_AT_MICROS, Long.toString(nowMicros()))
        .build();
  }

  int sizeBytes() {
    return payload.size();
  }

  static long nowMicros() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
  }

  /**
   * The sequence number of a received message, or -1 when it is not one of test {@code run}'s; a
   * null {@code run} (a subscribe-only test, the publisher being another process) takes any test's.
   */
  static long sequenceOf(PubsubMessage m, String run) {
    String s = m.getAttributesMap().get(SEQUENCE);
    if (s == null || (run != null && !run.equals(m.getAttributesMap().get(RUN)))) {
      return -1;
    }
    try {
      return Long.parseLong(s);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** Microseconds from the message's publish time to now, or -1 without the attribute. */
  static long endToEndMicros(PubsubMessage m) {
    String s = m.getAttributesMap().get(SENT_AT_MICROS);
    if (s == null) {
      return -1;
    }
    try {
      return Math.max(0, nowMicros() - Long.parseLong(s));
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
