package dev.ingestbench.harness.source;

import dev.ingestbench.contracts.PublisherResult;
import dev.ingestbench.contracts.RateProfile;
import dev.ingestbench.contracts.SendPacer;
import dev.ingestbench.contracts.SendSchedule;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.pubsub.PublishOutcomes;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Publishes event indexes 0, 1, 2, ... to one topic with its source's client (Pub/Sub or Kafka: an
 * {@link EventSender}), each at the time a schedule means it to be sent, at a rate that can change
 * while it runs ({@link #rate}).
 *
 * <p>A message is sent at its intended time, or at once when the publisher is late (the client's
 * queue was full, the machine was busy): it never skips ahead and never waits for a reply before
 * the next, so a slow service or client shows up as latency against the intended time instead of a
 * lower, quietly accepted rate (coordinated omission, openmessaging/benchmark#248). Before it sends
 * the first message of a new rate it hands that step of the schedule to {@code schedule} (the local
 * BigQuery, which measures every row against it).
 *
 * <p>Rate 0 sends as fast as the client takes messages, without a schedule: how the search measures
 * what the publisher itself can do.
 */
public final class PacedPublisher implements RatedPublisher {
  /** Where each step of the schedule goes before its first message is sent. */
  @FunctionalInterface
  public interface ScheduleSink {
    void add(SendSchedule step) throws IOException;
  }

  private final EventSender sender;
  private final TaxiRideGenerator generator;
  private final ScheduleSink schedule;
  private final Thread loop;
  private final PublishOutcomes outcome = new PublishOutcomes();
  private static final double PAUSED = -1;

  /** The first event index it sends. */
  private final long firstIndex;

  /** How many it sends before it stops by itself; -1: until it is stopped. */
  private final long count;

  /** A step of a rate profile: its rate from its first index on. */
  private record PlannedStep(long firstIndex, double rate) {}

  /** A rate profile's steps, in order; empty without a profile. */
  private volatile List<PlannedStep> planned = List.of();

  private volatile double requestedRate = PAUSED;
  private volatile boolean stopping;
  private boolean started;
  private boolean closed;
  private volatile long handed;
  private volatile Exception loopFailure;

  /**
   * @param sender sends each message to the source's topic (the Pub/Sub client, a Kafka producer);
   *     closed with this publisher
   * @param generator makes message {@code i}: the seed the local BigQuery checks rows against
   * @param schedule where each step goes (nothing for rate 0)
   */
  public PacedPublisher(EventSender sender, TaxiRideGenerator generator, ScheduleSink schedule) {
    this(sender, generator, schedule, 0, -1);
  }

  /**
   * As above, sending event indexes {@code firstIndex} .. {@code firstIndex + count - 1} and then
   * no more (a run's live messages, after its backlog's).
   */
  public PacedPublisher(
      EventSender sender,
      TaxiRideGenerator generator,
      ScheduleSink schedule,
      long firstIndex,
      long count) {
    this.firstIndex = firstIndex;
    this.count = count;
    this.sender = sender;
    this.generator = generator;
    this.schedule = schedule;
    this.loop = new Thread(this::publishLoop, "paced-publisher");
    loop.setDaemon(true);
  }

  /**
   * Sends at {@code messagesPerSecond} from the next message on (0: as fast as it can, without a
   * schedule); the first call starts sending.
   */
  @Override
  public synchronized void rate(double messagesPerSecond) {
    if (messagesPerSecond < 0 || Double.isNaN(messagesPerSecond)) {
      throw new IllegalArgumentException("a rate is 0 or more, not " + messagesPerSecond);
    }
    requestedRate = messagesPerSecond;
    if (!started && !stopping) {
      started = true; // once: a thread that has ended cannot start again
      loop.start();
    }
  }

  /**
   * Steps through {@code profile} at {@code base} messages/s for 1x from the first message on: each
   * step's rate from its first index, as {@link RateProfile#messagesOf} counts them (the last step
   * until the count ends), each told to the schedule when it starts; starts sending. Not with
   * {@link #rate} or {@link #pause}, which a profile's next step would override.
   */
  public synchronized void profile(double base, RateProfile profile) {
    if (started) {
      // The loop reads the steps as it starts, and a step would override a rate() given since.
      throw new IllegalStateException("a profile is given before sending starts, and alone");
    }
    if (!(base > 0)) {
      throw new IllegalArgumentException("a profile's base rate is above 0, not " + base);
    }
    List<PlannedStep> steps = new ArrayList<>();
    long index = firstIndex;
    for (RateProfile.Step step : profile.steps()) {
      steps.add(new PlannedStep(index, base * step.multiplier()));
      index += RateProfile.messagesOf(step, base);
    }
    planned = List.copyOf(steps);
    rate(steps.get(0).rate());
  }

  /**
   * Sends nothing until the next {@link #rate}, which starts a new step of the schedule then (the
   * pause is not counted against the publisher).
   */
  @Override
  public synchronized void pause() {
    requestedRate = PAUSED;
  }

  /** Messages the source (Pub/Sub, Kafka) has acknowledged so far. */
  @Override
  public long acknowledged() {
    return outcome.acknowledged();
  }

  /**
   * Messages handed to the client so far: indexes [first, first + handed) were sent or are on their
   * way.
   */
  @Override
  public long handed() {
    return handed;
  }

  /** It was given a count, has handed every message of it to the client, and has every reply. */
  public boolean finished() {
    return count >= 0 && handed == count && outcome.allAnswered(handed);
  }

  /**
   * What it published since {@code started}, as every publisher of the project records it ({@code
   * publisher_live.json}): the messages handed to the client, those the source acknowledged, the
   * rest as failures.
   */
  @Override
  public PublisherResult result(
      String topic, int messageSize, double rate, Instant started, String runId) {
    long sent = handed;
    long published = acknowledged();
    return PublisherResult.of(
        topic, sent, published, sent - published, messageSize, rate, started, Instant.now(), runId);
  }

  /** Why publishing failed (a failed publish, a schedule the server refused), or null. */
  @Override
  public Exception failure() {
    if (loopFailure != null) {
      return loopFailure;
    }
    Throwable t = outcome.firstFailure();
    return t == null
        ? null
        : new IOException(outcome.failed() + " messages failed to publish; first: " + t, t);
  }

  /**
   * Stops sending and waits (at most {@code max}) until every message handed to the client has its
   * reply: afterwards {@link #acknowledged} is what was published.
   */
  @Override
  public void stop(Duration max) throws InterruptedException {
    synchronized (this) {
      stopping = true;
    }
    loop.join(Math.max(1, max.toMillis())); // join(0) would wait forever
    sender.flush();
    long deadline = System.nanoTime() + max.toNanos();
    while (!outcome.allAnswered(handed) && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
  }

  private void publishLoop() {
    double rate = PAUSED;
    SendSchedule step = null;
    long stepStartNanos = 0;
    long index = firstIndex;
    long end = count < 0 ? Long.MAX_VALUE : firstIndex + count;
    List<PlannedStep> steps = planned;
    int nextStep = 1; // the first step's rate is the one that started the loop
    try {
      while (!stopping && outcome.firstFailure() == null && index < end) {
        boolean profileStep = false;
        while (nextStep < steps.size() && index >= steps.get(nextStep).firstIndex()) {
          requestedRate = steps.get(nextStep++).rate();
          profileStep = true;
        }
        if (requestedRate != rate) {
          rate = requestedRate;
          if (rate > 0) {
            // A late publisher stays late: the new step starts where the old one meant the next
            // message to go, so the lateness is kept in the latency, not forgiven. A profile's
            // step starts there even when that is still to come (its time is part of the plan);
            // a rate asked for now starts now if the old step's next message was not yet due.
            long nowNanos = System.nanoTime();
            long intended = step == null ? nowNanos : stepStartNanos + nanosInto(step, index);
            long startNanos = profileStep ? intended : Math.min(nowNanos, intended);
            long startMicros =
                TimeUnit.MILLISECONDS.toMicros(System.currentTimeMillis())
                    - (nowNanos - startNanos) / 1_000;
            step = new SendSchedule(index, startMicros, rate);
            stepStartNanos = startNanos;
            schedule.add(step);
          } else {
            step = null;
          }
        }
        if (rate == PAUSED) {
          LockSupport.parkNanos(50_000_000L);
          continue;
        }
        if (step != null) {
          long due = stepStartNanos + nanosInto(step, index);
          long wait = due - System.nanoTime();
          if (wait > 0) {
            SendPacer.park(wait);
            continue; // a rate change or a stop may have come meanwhile
          }
        }
        sender.send(index, generator.message(index), System.currentTimeMillis(), outcome);
        index++;
        handed = index - firstIndex;
      }
      if (index == end) {
        sender.flush(); // the last batch goes now, not at the client's next timer
      }
    } catch (IOException | RuntimeException e) {
      loopFailure = e;
    }
  }

  private static long nanosInto(SendSchedule step, long index) {
    return Math.round((index - step.firstIndex()) * 1e9 / step.messagesPerSecond());
  }

  /**
   * Stops (waiting up to 30 s for replies, unless {@link #stop} was called and waited as it was
   * told), then shuts the client down; a second call does nothing.
   */
  @Override
  public synchronized void close() throws Exception {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (!stopping) {
        stop(Duration.ofSeconds(30));
      }
    } finally {
      sender.close(); // also when the stop was interrupted (Ctrl-C, a failed round)
    }
  }
}
