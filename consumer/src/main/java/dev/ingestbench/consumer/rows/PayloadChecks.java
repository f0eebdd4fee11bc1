package dev.ingestbench.consumer.rows;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What a JSON message's bytes must be before they are parsed: UTF-8 (RFC 8259), without a
 * byte-order mark. Jackson would read UTF-16 and UTF-32 too (it detects them), and a skipped
 * string's invalid bytes can pass it unchecked; BigQuery stores UTF-8 only, so such a message is
 * refused here with the reason rather than written changed.
 */
final class PayloadChecks {
  private PayloadChecks() {}

  /** Why {@code payload} is not a UTF-8 JSON text, or null when it is. */
  static @Nullable String jsonEncodingProblem(byte[] payload) {
    if (startsWith(payload, 0x00, 0x00, 0xFE, 0xFF)
        || startsWith(payload, 0xFF, 0xFE, 0x00, 0x00)) {
      return "payload is UTF-32 (it starts with a byte-order mark): JSON messages must be UTF-8 (RFC 8259)";
    }
    if (startsWith(payload, 0xFE, 0xFF) || startsWith(payload, 0xFF, 0xFE)) {
      return "payload is UTF-16 (it starts with the byte-order mark "
          + hex(payload[0])
          + " "
          + hex(payload[1])
          + "): JSON messages must be UTF-8 (RFC 8259)";
    }
    if (startsWith(payload, 0xEF, 0xBB, 0xBF)) {
      return "payload starts with a UTF-8 byte-order mark (EF BB BF), which JSON messages must not have"
          + " (RFC 8259 section 8.1)";
    }
    if (payload.length >= 2 && (payload[0] == 0 || payload[1] == 0)) {
      return "payload starts with a zero byte: it looks like UTF-16 or UTF-32 without a byte-order mark;"
          + " JSON messages must be UTF-8 (RFC 8259)";
    }
    return utf8Problem(payload);
  }

  /** Why {@code payload} is not valid UTF-8 (naming the first bad byte and its offset), or null. */
  static @Nullable String utf8Problem(byte[] payload) {
    int firstNonAscii = 0;
    while (firstNonAscii < payload.length && payload[firstNonAscii] >= 0) {
      firstNonAscii++; // nearly every message is ASCII: no decoder needed
    }
    if (firstNonAscii == payload.length) {
      return null;
    }
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(payload, firstNonAscii, payload.length - firstNonAscii);
    try {
      decoder.decode(in);
      return null;
    } catch (CharacterCodingException e) {
      // decode() leaves the buffer at the start of the malformed sequence
      int at = in.position();
      return String.format(
          Locale.ROOT,
          "payload is not valid UTF-8: byte %s at offset %d of %d",
          hex(payload[at]),
          at,
          payload.length);
    }
  }

  private static boolean startsWith(byte[] payload, int... prefix) {
    if (payload.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if ((payload[i] & 0xFF) != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private static String hex(byte b) {
    return String.format(Locale.ROOT, "%02X", b & 0xFF);
  }
}
