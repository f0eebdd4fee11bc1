package dev.ingestbench.contracts;

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
public record DeadLetterSample(String stage, String error, Long eventIndex, Long payloadBytes, String payloadBase64) {

  /** The stored payload's bytes. */
  public byte[] payload() {
    return payloadBase64 == null ? new byte[0] : Base64.getDecoder().decode(payloadBase64);
  }
}
