package dev.ingestbench.harness.source;

import dev.ingestbench.events.MessageFormat;
import dev.ingestbench.events.TaxiRideGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.ToLongFunction;

/**
 * What every feed does whatever it publishes to: a thread that, every {@link #TICK} while a job is
 * fed, reads what the jobs accounted for and lets the feed top up what runs low; the bounds it
 * keeps ({@link #low}, {@link #high}, the most it feeds in all); a failure that stops every job's
 * feeding; when it last topped up.
 */
abstract class TopUpFeed implements SourceFeed {
  static final Duration TICK = Duration.ofMillis(250);

  /** Reads of what the jobs accounted for that may fail in a row before a feed fails. */
  static final int READ_ATTEMPTS = 3;

  final TaxiRideGenerator generator;
  final AccountedCounts accounted;
  final long low;
  final long high;

  /** The most it feeds a job: a backlog in tranches; unbounded by default. */
  long limit = Long.MAX_VALUE;

  private final Thread loop;
  private volatile boolean closed;
  private volatile Exception failure;

  /** When the last tranche was acknowledged; null before the first. */
  private volatile Instant lastTopUp;

  /**
   * @param seed the seed of the events (the BigQuery emulator checks every row against it)
   * @param accounted reads every job's accounted-for messages now; called once per tick while a job
   *     is fed
   */
  TopUpFeed(
      int messageSize,
      String messageFormat,
      long seed,
      AccountedCounts accounted,
      long high,
      String thread) {
    this.generator =
        new TaxiRideGenerator(
            seed, messageSize, MessageFormat.fromFlag("publish.message_format", messageFormat));
    this.accounted = accounted;
    this.high = high;
    this.low = high / 2;
    this.loop = new Thread(this::feedLoop, thread);
    loop.setDaemon(true);
  }

  /** At most {@code bytes} of messages of {@code messageSize}, within {@code min}..{@code max}. */
  static long high(long bytes, int messageSize, long min, long max) {
    return Math.max(min, Math.min(max, bytes / Math.max(1, messageSize)));
  }

  /** Whether any job is being fed now. */
  abstract boolean anyFeeding();

  /** Tops up what runs low, given what every job has accounted for now. */
  abstract void tick(ToLongFunction<String> accountedNow) throws Exception;

  /** Stops feeding every job. */
  @Override
  public abstract void stopAll();

  /** The end (exclusive) of the next tranche after {@code first}, with {@code waiting} unread. */
  long tranche(long first, long waiting) {
    return Math.min(limit, first + Math.max(0, high - waiting));
  }

  /** A tranche was acknowledged. */
  void toppedUp() {
    lastTopUp = Instant.now();
  }

  /** Starts the loop, once, unless closed. */
  synchronized void startLoop() {
    if (!loop.isAlive() && !closed) {
      loop.start();
    }
  }

  @Override
  public boolean bounded() {
    return limit != Long.MAX_VALUE;
  }

  @Override
  public long low() {
    return low;
  }

  @Override
  public long high() {
    return high;
  }

  @Override
  public Optional<Instant> lastTopUp() {
    return Optional.ofNullable(lastTopUp);
  }

  /** Why feeding failed, or null. */
  @Override
  public Exception failure() {
    return failure;
  }

  private void feedLoop() {
    while (!closed) {
      try {
        if (anyFeeding()) {
          tick(accounted.readRetrying(READ_ATTEMPTS, TICK));
        }
        Thread.sleep(TICK.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        if (!closed) {
          failure = e;
          stopAll();
        }
        return;
      }
    }
  }

  /** Stops the loop (and waits for it), before the feed closes what it publishes with. */
  void stopLoop() throws InterruptedException {
    closed = true;
    loop.interrupt();
    loop.join(10_000);
  }
}
