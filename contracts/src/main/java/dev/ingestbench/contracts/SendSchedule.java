package dev.ingestbench.contracts;

/**
 * When a paced publisher meant to send each message: from event index {@code firstIndex} on, one
 * message every {@code 1 / messagesPerSecond} seconds starting at {@code startEpochMicros}, until
 * the next step's first index. The publisher gives the local BigQuery each step before it sends
 * from it ({@link #PATH}, HTTP PUT), so every row's latency can be measured against the time its
 * message was meant to be sent, not the time it was: a publisher that falls behind (a stalled
 * client, a full queue) then shows as latency instead of hiding it (coordinated omission).
 *
 * @param firstIndex the event index of the step's first message
 * @param startEpochMicros when that message was meant to be sent
 * @param messagesPerSecond the step's rate; above 0
 */
public record SendSchedule(long firstIndex, long startEpochMicros, double messagesPerSecond) {
  /** Where a step is given to the local BigQuery's REST port (PUT), and every step read (GET). */
  public static final String PATH = "/ingestbench/v1/schedule";

  public SendSchedule {
    if (firstIndex < 0 || !(messagesPerSecond > 0) || Double.isInfinite(messagesPerSecond)) {
      throw new IllegalArgumentException(
          "a send schedule step needs a first index >= 0 and a rate above 0, not "
              + firstIndex
              + " at "
              + messagesPerSecond
              + " msg/s");
    }
  }

  /** When message {@code index} (at or after {@link #firstIndex}) was meant to be sent. */
  public long intendedMicros(long index) {
    return startEpochMicros + Math.round((index - firstIndex) * 1e6 / messagesPerSecond);
  }
}
