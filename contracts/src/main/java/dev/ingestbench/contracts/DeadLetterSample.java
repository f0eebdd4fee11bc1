package dev.ingestbench.contracts;

import java.util.Arrays;
import java.util.Base64;

/**
 * One dead-letter row as the local BigQuery stored it: enough to see why a message was refused and
 * to get the very bytes that were sent back.
 *
 * @param stage what refused it: {@code size}, {@code decode}, {@code parse} or {@code bigquery}
 * @param error the reason
 * @param eventIndex the publisher's event index, when the message carried a readable one
 * @param payloadBytes size of the message as it arrived
 * @param payloadBase64 the stored payload, base64: the message byte for byte, or its first bytes
 *     when {@code payloadBytes} is larger than what it decodes to (an oversized message)
 */
public record DeadLetterSample(
    String stage, String error, Long eventIndex, Long payloadBytes, String payloadBase64) {

  /**
   * This sample with at most {@code maxPayloadBytes} of its payload and {@code maxErrorChars} of
   * its error kept ({@code payloadBytes} still gives the whole size): a server keeping samples of
   * what clients send must not keep megabytes of each.
   */
  public DeadLetterSample truncated(int maxPayloadBytes, int maxErrorChars) {
    byte[] payload = payload();
    String shortError =
        error == null || error.length() <= maxErrorChars
            ? error
            : error.substring(0, maxErrorChars) + "… (" + error.length() + " characters)";
    if (payload.length <= maxPayloadBytes && shortError == error) {
      return this;
    }
    String kept =
        payloadBase64 == null
            ? null
            : Base64.getEncoder()
                .encodeToString(Arrays.copyOf(payload, Math.min(payload.length, maxPayloadBytes)));
    return new DeadLetterSample(
        stage,
        shortError,
        eventIndex,
        payloadBytes == null ? (long) payload.length : payloadBytes,
        kept);
  }

  /** The stored payload's bytes. */
  public byte[] payload() {
    return payloadBase64 == null ? new byte[0] : Base64.getDecoder().decode(payloadBase64);
  }
}
