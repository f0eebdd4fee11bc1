package dev.ingestbench.contracts;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends one range of event indexes on a schedule: at a rate, or stepping through a {@link
 * RateProfile}. From {@link #start}, each message is due at the time its step's rate puts it. A
 * message is sent when it is due or, when the sender is late, at once: the sender never skips ahead
 * and never waits for a reply, so its own delays count as latency against the intended send time
 * ({@link SendSchedule}) instead of lowering the rate unseen.
 */
public final class SendPacer {
  private static final long MAX_PARK_NANOS = 50_000_000L;

  /**
   * The shortest wait: a sender that waits for each message on its own wakes once per message
   * (10,000 times a second at 10,000 msg/s), and the wakeups cost more than the sending. Waiting at
   * least 5 ms sends the messages that fell due meanwhile together, each at most ~5 ms after its
   * time (which counts in the latency against the intended send time). Measured, this JVM pacing
   * 100,000 messages at 10,000 msg/s to a sender that drops them, 2 pairs: 24.8% and 27.4% of a
   * vCPU waiting for each message, 8.9% and 8.7% waiting at least 1 ms; with the Pub/Sub client, 5
   * ms and its 100 ms batches took the live publisher from 0.10-0.11 to 0.06-0.08 of a vCPU
   * (docs/max-rate.md). The Pub/Sub client batches for longer than this anyway; a Kafka producer
   * (linger) and the Beam publishers' workers, which pace with this class too, were not measured
   * apart: 5 ms is well within any latency SLO they are held to.
   */
  private static final long MIN_PARK_NANOS = 5_000_000L;

  /** One step: its first index, its rate, when it starts after {@link #start} (nanoseconds). */
  private record Segment(long firstIndex, double rate, long offsetNanos) {}

  private final List<Segment> segments = new ArrayList<>();
  private long startNanos;
  private int current;

  /** One rate for the whole range. */
  public SendPacer(long firstIndex, double messagesPerSecond) {
    if (!(messagesPerSecond > 0)) {
      throw new IllegalArgumentException("a paced rate is above 0, not " + messagesPerSecond);
    }
    segments.add(new Segment(firstIndex, messagesPerSecond, 0));
  }

  /**
   * {@code profile}'s steps at {@code base} messages/s for 1x (this sender's share of the rate),
   * from {@code firstIndex}; the last step goes on until the range ends.
   */
  public SendPacer(long firstIndex, double base, RateProfile profile) {
    if (!(base > 0)) {
      throw new IllegalArgumentException("a paced rate is above 0, not " + base);
    }
    long index = firstIndex;
    long offset = 0;
    for (RateProfile.Step step : profile.steps()) {
      double rate = base * step.multiplier();
      segments.add(new Segment(index, rate, offset));
      index += Math.round(rate * step.seconds());
      offset += step.seconds() * 1_000_000_000L;
    }
  }

  /**
   * Starts the schedule now: the first message is due at once. Its steps, for the local BigQuery.
   */
  public List<SendSchedule> start() {
    startNanos = System.nanoTime();
    long startMicros = System.currentTimeMillis() * 1000;
    List<SendSchedule> steps = new ArrayList<>();
    for (Segment s : segments) {
      steps.add(new SendSchedule(s.firstIndex(), startMicros + s.offsetNanos() / 1000, s.rate()));
    }
    return steps;
  }

  /** Waits until message {@code index} is due (indexes in order); at once when it is already. */
  public void awaitTurn(long index) throws InterruptedException {
    while (current + 1 < segments.size() && index >= segments.get(current + 1).firstIndex()) {
      current++;
    }
    Segment s = segments.get(current);
    long due = startNanos + s.offsetNanos() + Math.round((index - s.firstIndex()) * 1e9 / s.rate());
    long wait;
    while ((wait = due - System.nanoTime()) > 0) {
      park(wait);
      if (Thread.interrupted()) {
        throw new InterruptedException();
      }
    }
  }

  /**
   * Waits for a message due in {@code waitNanos}: at least {@link #MIN_PARK_NANOS}, at most 50 ms
   * (a rate change or a stop is seen within that).
   */
  public static void park(long waitNanos) {
    LockSupport.parkNanos(Math.max(MIN_PARK_NANOS, Math.min(waitNanos, MAX_PARK_NANOS)));
  }
}
