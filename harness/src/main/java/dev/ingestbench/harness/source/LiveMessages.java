package dev.ingestbench.harness.source;

import dev.ingestbench.contracts.RateProfile;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.events.TaxiRideGenerator;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A run's live messages (a round's once its backlog is drained, a scenario's while its stages run),
 * published by the run's own JVM with the source's client: the {@link PacedPublisher}, as the
 * max-rate search publishes, event indexes after the backlog's, each at the time the rate (or the
 * step of a rate profile) means it to be sent. A publisher JVM running a Beam pipeline took as much
 * of the machine as the pipeline under test.
 *
 * <p>Once every message has its reply, its result is {@code publisher_live.json}: what the source
 * acknowledged, which the jobs are verified against. A publisher that could not hand every message
 * to the client, or have it answered, writes none, and the jobs are then not verified.
 */
public final class LiveMessages implements AutoCloseable {
  /**
   * What is published.
   *
   * @param topic as the result names it
   * @param first the first event index (the backlog's count)
   * @param count how many, {@code first} .. {@code first + count - 1}
   * @param rate messages/s; with a profile, its 1x
   * @param profile the steps of the rate, or null for one rate
   */
  public record Load(
      String topic, int messageSize, long first, long count, double rate, RateProfile profile) {
    public Load {
      if (profile != null && profile.messages(rate) != count) {
        throw new IllegalArgumentException(
            "the profile "
                + profile
                + " at "
                + rate
                + " msg/s sends "
                + profile.messages(rate)
                + " messages, not "
                + count);
      }
    }
  }

  private final Load load;
  private final Path result;
  private final String runId;
  private final Consumer<String> say;
  private final PacedPublisher publisher;
  private final Instant started = Instant.now();

  /**
   * Changes the rate at the times of a stage's profile ({@link #stepThrough}); made on first use.
   */
  private ScheduledExecutorService steps;

  private final List<ScheduledFuture<?>> stepping = new ArrayList<>();

  /** Counts {@link #stepThrough} calls: a step runs only for the latest. */
  private long generation;

  private boolean closed;

  /**
   * Starts sending {@code load} through {@code sender}.
   *
   * @param schedule where each step of the rate goes before its first message (the local BigQuery,
   *     which measures every row against it), or nothing
   * @param result where the result goes ({@code publisher_live.json})
   * @param runId the run's id, which the result carries
   * @param say where it says what was not published, and why
   */
  public LiveMessages(
      EventSender sender,
      TaxiRideGenerator generator,
      PacedPublisher.ScheduleSink schedule,
      Load load,
      Path result,
      String runId,
      Consumer<String> say) {
    this.load = load;
    this.result = result;
    this.runId = runId;
    this.say = say;
    this.publisher = new PacedPublisher(sender, generator, schedule, load.first(), load.count());
    try {
      if (load.profile() == null) {
        publisher.rate(load.rate());
      } else {
        publisher.profile(load.rate(), load.profile());
      }
    } catch (RuntimeException e) {
      try {
        sender.close(); // it was opened for this publisher, and nobody else will close it
      } catch (Exception closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  /**
   * Steps the rate through {@code profile} from now, in multiples of the load's rate, and returns
   * to that rate after its last step (a scenario stage's {@code live_profile}); null: the load's
   * rate from now on. Replaces the steps of an earlier call that have not come yet.
   */
  public synchronized void stepThrough(RateProfile profile) {
    generation++; // a step of an earlier call that is already running changes nothing now
    stepping.forEach(step -> step.cancel(false));
    stepping.clear();
    if (closed || !publishing()) {
      return;
    }
    if (profile == null) {
      publisher.rate(load.rate());
      return;
    }
    if (steps == null) {
      steps =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "live-profile-steps");
                t.setDaemon(true);
                return t;
              });
    }
    long gen = generation;
    long offset = 0;
    for (RateProfile.Step step : profile.steps()) {
      double rate = load.rate() * step.multiplier();
      stepping.add(steps.schedule(() -> stepTo(gen, rate), offset, TimeUnit.SECONDS));
      offset += step.seconds();
    }
    stepping.add(steps.schedule(() -> stepTo(gen, load.rate()), offset, TimeUnit.SECONDS));
  }

  /** A step of call {@code gen}, unless a later call has replaced it. */
  private synchronized void stepTo(long gen, double rate) {
    if (gen == generation && !closed) {
      publisher.rate(rate);
    }
  }

  /** Still sending, or waiting for replies, and nothing has failed. */
  public boolean publishing() {
    return !publisher.finished() && publisher.failure() == null;
  }

  /** Messages the source has acknowledged so far. */
  public long acknowledged() {
    return publisher.acknowledged();
  }

  /**
   * Waits at most {@code max} for every message to be handed to the client and answered, then
   * stops; writes the result only then, and says so. Says what was not published, and why.
   *
   * @return whether the result was written
   */
  public boolean finish(Duration max) throws Exception {
    return finish(max, false);
  }

  /**
   * As {@link #finish(Duration)}; with {@code everyOne}, a message the source refused (every one
   * answered, some with a failure) leaves no result either: a run whose jobs wait for every live
   * message (a round's) cannot be verified against fewer.
   */
  public boolean finish(Duration max, boolean everyOne) throws Exception {
    long deadline = System.nanoTime() + max.toNanos();
    while (publishing() && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    boolean answered = publisher.finished();
    Exception failure = publisher.failure();
    publisher.stop(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    close();
    long published = publisher.acknowledged();
    if (!answered || (everyOne && published < load.count())) {
      say.accept(
          String.format(
              "The live messages were not all published (%,d of %,d acknowledged%s): the jobs are"
                  + " not verified against them",
              published,
              load.count(),
              failure != null
                  ? "; " + failure.getMessage()
                  : answered
                      ? "; the source refused the others"
                      : " within " + Math.max(1, max.toSeconds()) + " s"));
      return false;
    }
    if (published < load.count()) {
      say.accept(
          String.format(
              "%,d of the %,d live messages (indexes from %,d) failed to publish (%s): the jobs are"
                  + " verified against the %,d the source acknowledged",
              load.count() - published,
              load.count(),
              load.first(),
              failure == null ? "?" : failure.getMessage(),
              published));
    }
    RunJson.write(
        result, publisher.result(load.topic(), load.messageSize(), load.rate(), started, runId));
    return true;
  }

  /**
   * Stops sending and shuts the client down, waiting at most a second for replies: without {@link
   * #finish} nothing is written, so a run that ends early (Ctrl-C, a failure) does not wait on
   * them.
   */
  @Override
  public void close() throws Exception {
    synchronized (this) {
      if (closed) {
        return; // finish() closes it, and the run closes what it started again
      }
      closed = true;
      if (steps != null) {
        steps.shutdownNow();
      }
    }
    try {
      publisher.stop(Duration.ofSeconds(1));
    } finally {
      publisher.close();
    }
  }
}
