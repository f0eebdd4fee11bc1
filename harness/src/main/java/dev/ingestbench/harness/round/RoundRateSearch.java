package dev.ingestbench.harness.round;

import dev.ingestbench.analysis.capacity.RateBisection;
import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.MaxRateResult;
import dev.ingestbench.contracts.RunFiles;
import dev.ingestbench.contracts.RunJson;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.harness.process.BigQueryEmulatorProcess;
import dev.ingestbench.harness.source.EventSender;
import dev.ingestbench.harness.source.PacedPublisher;
import dev.ingestbench.harness.source.RatedPublisher;
import dev.ingestbench.harness.spec.MaxRateSpec;
import dev.ingestbench.harness.staged.Ticker;
import dev.ingestbench.scenario.StageKind.MaxRateSearch;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * {@code round --find-max-rate}: the highest live rate every job of the round keeps up with inside
 * the latency SLO, found by probing rates ({@link RateBisection}) with a {@link PacedPublisher} on
 * the round's topic while the consumers run. Runs on its own thread; the round's target starts it
 * once every consumer has started and ends the consumers once it has {@link #finished}.
 *
 * <p>Before any consumer starts, {@link #measurePublisher} sends as fast as it can to a topic
 * nobody reads: the publisher's own capacity is the first probe, so a publisher limit is never
 * reported as the pipeline's. docs/max-rate.md describes each step and how a limit is named.
 */
final class RoundRateSearch implements AutoCloseable {
  /**
   * A rate is kept when every job wrote this share of it over the window, and so did the source.
   */
  static final double KEPT_UP = 0.95;

  /** Above this share of the window's messages still invisible when judged, the p99 is missed. */
  static final double LATE_SHARE = 0.01;

  /** The first probe's rate; the search doubles it while it is sustained. */
  static final double FIRST_PROBE = 2_000;

  /** The warm-up's rate: enough to see every job write, little enough for any machine. */
  static final double WARM_UP_RATE = 500;

  /**
   * The publisher alone sent 165,008 and 225,537 msg/s on 2 vCPUs (docs/max-rate.md): 5 s are over
   * 800,000 messages, a rate read from a long enough sample for the top of the search.
   */
  private static final Duration MEASURE_PUBLISHER = Duration.ofSeconds(5);

  private static final Duration SECOND = Duration.ofSeconds(1);

  /** The topic nobody reads, to which the publisher's own capacity is measured. */
  static final String PUBLISHER_TOPIC = "ingestbench-publisher-capacity";

  /**
   * What the search needs of the running round.
   *
   * @param senders the round's topic, which every job reads
   * @param topic its name, for the publisher's result
   */
  record Round(
      EventSender.Opener senders,
      String topic,
      TaxiRideGenerator generator,
      BigQueryEmulatorProcess.Address bigQuery,
      List<String> jobs,
      List<LongSupplier> consumerPids,
      long sourcePid,
      long sinkPid,
      Path out,
      String runId,
      int messageSize) {}

  private final MaxRateSpec spec;
  private final Consumer<String> say;
  private final SearchWorld world;
  private final Ticker ticker;
  private double publisherCapacity = Double.NaN;
  private Thread thread;
  private volatile RatedPublisher publisher;
  private volatile boolean finished;
  private volatile Exception failure;
  private volatile long published;
  private volatile long handed;

  RoundRateSearch(MaxRateSpec spec, Consumer<String> say) {
    this(spec, say, SearchWorld.system());
  }

  /** On {@code world}: a simulated pipeline in tests. */
  RoundRateSearch(MaxRateSpec spec, Consumer<String> say, SearchWorld world) {
    this.spec = spec;
    this.say = say;
    this.world = world;
    this.ticker = world.ticker();
  }

  /**
   * The publisher alone, as fast as it can, to {@code alone}: a topic nobody reads (Pub/Sub drops
   * what nobody subscribed to; a Kafka topic keeps it, unread). The top of the search. Call before
   * the consumers start.
   */
  void measurePublisher(EventSender.Opener alone, TaxiRideGenerator generator) throws Exception {
    say.accept(
        "Max-rate search: first the publisher's own capacity ("
            + MEASURE_PUBLISHER.toSeconds()
            + " s, no rate limit, to a topic nobody reads)");
    try (RatedPublisher p = world.publisher(alone.open(), generator, step -> {})) {
      p.rate(0);
      ticker.sleep(Duration.ofSeconds(2)); // the client's channel and batches warm up
      long from = p.acknowledged();
      Instant start = ticker.now();
      ticker.sleep(MEASURE_PUBLISHER);
      publisherCapacity = (p.acknowledged() - from) / ticker.secondsSince(start);
      if (p.failure() != null) {
        throw new IOException("the publisher failed: " + p.failure().getMessage());
      }
    }
    say.accept(String.format(Locale.ROOT, "Publisher capacity: %,.0f msg/s", publisherCapacity));
  }

  /** Starts probing on a thread of its own (the consumers have started). */
  void start(Round round) {
    thread = new Thread(() -> run(round), "max-rate-search");
    thread.setDaemon(true);
    thread.start();
  }

  /** The search has ended and its publisher stopped: {@link #published} is final. */
  boolean finished() {
    return finished;
  }

  /** Why the search could not go on, or null. */
  Exception failure() {
    return failure;
  }

  /** Messages the source acknowledged to the search's publisher (final once finished). */
  long published() {
    RatedPublisher p = publisher;
    return finished || p == null ? published : p.acknowledged();
  }

  /** Messages handed to the client so far: the most any job can account for. */
  long handed() {
    RatedPublisher p = publisher;
    return finished || p == null ? handed : p.handed();
  }

  /** Stops the search and its publisher (Ctrl-C, a failed round). */
  @Override
  public void close() throws Exception {
    if (thread != null) {
      thread.interrupt();
      thread.join(30_000);
    }
    RatedPublisher p = publisher;
    if (p != null) {
      p.close();
    }
  }

  private void run(Round round) {
    Instant started = ticker.now();
    SearchWorld.Sink rest = world.sink(round.bigQuery());
    try (RatedPublisher p = world.publisher(round.senders().open(), round.generator(), rest)) {
      publisher = p;
      warmUp(round, rest, p);
      MaxRateResult result = probe(round, rest, p);
      p.stop(Duration.ofSeconds(60));
      handed = p.handed();
      published = p.acknowledged();
      RunJson.write(
          round.out().resolve(RunFiles.PUBLISHER_LIVE),
          p.result(round.topic(), round.messageSize(), 0, started, round.runId()));
      RunJson.write(round.out().resolve(RunFiles.MAX_RATE_SEARCH), result);
      if (p.failure() != null) {
        throw p.failure();
      }
      say.accept(sentence(result));
    } catch (InterruptedException e) {
      failure = new IOException("the max-rate search was stopped");
    } catch (Exception e) {
      failure = e;
    } finally {
      RatedPublisher p = publisher;
      if (p != null) {
        handed = p.handed();
        published = p.acknowledged();
      }
      finished = true;
    }
  }

  /** Publishes slowly until every job has written and caught up. */
  private void warmUp(Round round, SearchWorld.Sink rest, RatedPublisher p) throws Exception {
    double rate = Math.min(WARM_UP_RATE, Math.max(1, Math.floor(publisherCapacity / 10)));
    say.accept(
        String.format(
            Locale.ROOT,
            "Warm-up at %,.0f msg/s until every job writes (a local Flink consumer takes ~20-30 s)",
            rate));
    p.rate(rate);
    Instant deadline = ticker.now().plus(MaxRateSearch.WARM_UP_MAX);
    while (true) {
      ticker.sleep(SECOND);
      checkPublisher(p);
      EmulatorStatus s = rest.status();
      boolean writing = true;
      for (String job : round.jobs()) {
        EmulatorStatus.Job j = s.job(job);
        writing &= j.accountedFor() > 0 && p.handed() - j.accountedFor() <= rate * 2;
      }
      if (writing) {
        ticker.sleep(
            Duration.ofSeconds(3)); // a few seconds of steady writing before the first probe
        return;
      }
      if (ticker.now().isAfter(deadline)) {
        throw new IOException(
            "the consumers did not write the warm-up's messages within "
                + MaxRateSearch.WARM_UP_MAX.toMinutes()
                + " minutes; see the consumer logs");
      }
    }
  }

  private MaxRateResult probe(Round round, SearchWorld.Sink rest, RatedPublisher p)
      throws Exception {
    RateBisection search = RateBisection.rampingFrom(FIRST_PROBE, Math.floor(publisherCapacity));
    List<MaxRateResult.Probe> probes = new ArrayList<>();
    int confirmed = 0;
    boolean behind = false;
    while (probes.size() < spec.maxProbes() && !search.exhausted()) {
      boolean confirming = search.converged();
      if (confirming && confirmed >= spec.confirmations()) {
        break;
      }
      double rate = confirming ? search.sustained() : search.next();
      if (behind) {
        recover(round, rest, p);
      }
      MaxRateResult.Probe probe = probeAt(probes.size() + 1, rate, round, rest, p, confirming);
      probes.add(probe);
      behind = !probe.sustained();
      double achieved = Math.min(probe.publishedPerSecond(), probe.writtenPerSecond().mean());
      if (confirming) {
        if (probe.sustained()) {
          confirmed++;
        } else {
          confirmed = 0;
          search.unconfirmed(rate, highestSustainedBelow(probes, rate));
        }
      } else {
        search.record(rate, probe.sustained(), achieved);
      }
    }
    p.pause();
    return SearchResult.of(spec, round, publisherCapacity, search, probes);
  }

  private static double highestSustainedBelow(List<MaxRateResult.Probe> probes, double rate) {
    return probes.stream()
        .filter(q -> q.sustained() && q.askedPerSecond() < rate)
        .mapToDouble(MaxRateResult.Probe::askedPerSecond)
        .max()
        .orElse(0);
  }

  /** Pauses publishing until every job has caught up with what was sent. */
  private void recover(Round round, SearchWorld.Sink rest, RatedPublisher p) throws Exception {
    p.pause();
    say.accept("Letting the jobs catch up before the next probe");
    Instant deadline = ticker.now().plus(MaxRateSearch.RECOVER_MAX);
    while (true) {
      ticker.sleep(SECOND);
      checkPublisher(p);
      EmulatorStatus s = rest.status();
      long behind = 0;
      for (String job : round.jobs()) {
        behind = Math.max(behind, p.handed() - s.job(job).accountedFor());
      }
      if (behind <= 0) {
        return;
      }
      if (ticker.now().isAfter(deadline)) {
        throw new IOException(
            String.format(
                Locale.ROOT,
                "after a probe the jobs did not catch up within %d minutes (%,d messages still"
                    + " unaccounted for); see the consumer logs",
                MaxRateSearch.RECOVER_MAX.toMinutes(),
                behind));
      }
    }
  }

  /**
   * One probe: the rate for {@link MaxRateSpec#SETTLE}, then the window sampled each second, then
   * the SLO for the window's messages to arrive (still at the rate), then the judgement. A probe
   * whose backlog already exceeds what its jobs write in an SLO is cut short: not sustained.
   */
  private MaxRateResult.Probe probeAt(
      int number,
      double rate,
      Round round,
      SearchWorld.Sink rest,
      RatedPublisher p,
      boolean confirming)
      throws Exception {
    say.accept(
        String.format(
            Locale.ROOT,
            "Probe %d of at most %d: %,.0f msg/s%s",
            number,
            spec.maxProbes(),
            rate,
            confirming ? " (confirming the answer)" : ""));
    Instant startedAt = ticker.now();
    p.rate(rate);
    ticker.sleep(MaxRateSearch.SETTLE);
    ProbeWindow w = new ProbeWindow(round, rest, p, world);
    Instant windowEnd = ticker.now().plus(spec.window());
    String cut = null;
    while (ticker.now().isBefore(windowEnd)) {
      ticker.sleep(SECOND);
      checkPublisher(p);
      cut = w.sample(rate, spec.latencySlo());
      if (cut != null) {
        break;
      }
    }
    w.endLatencyWindow();
    if (cut == null) {
      // The window's last messages get the SLO to become visible; the rate goes on meanwhile, and
      // so does the measurement of throughput: a longer span, less noise from where a second's
      // flush falls.
      Instant until = ticker.now().plus(spec.latencySlo());
      while (ticker.now().isBefore(until) && cut == null) {
        Duration left = Duration.between(ticker.now(), until);
        ticker.sleep(left.compareTo(SECOND) < 0 ? left : SECOND);
        checkPublisher(p);
        cut = w.sample(rate, spec.latencySlo());
      }
    }
    w.close();
    MaxRateResult.Probe probe = w.judge(number, rate, startedAt, spec.latencySlo(), cut);
    say.accept(
        String.format(
            Locale.ROOT,
            "Probe %d: published %,.0f msg/s, written %,.0f rows/s per job, latency p99 %s: %s",
            number,
            probe.publishedPerSecond(),
            probe.writtenPerSecond().mean(),
            probe.intended() == null
                ? "n/a"
                : String.format(Locale.ROOT, "%,d ms", probe.intended().p99Ms()),
            probe.sustained() ? "sustained" : "not sustained (" + probe.verdict() + ")"));
    return probe;
  }

  private static void checkPublisher(RatedPublisher p) throws Exception {
    if (p.failure() != null) {
      throw p.failure();
    }
  }

  private static String sentence(MaxRateResult r) {
    return r.maxSustainableRowsPerSecond() == null
        ? String.format(
            Locale.ROOT,
            "No rate was sustained in %d probes (limited by %s: %s)",
            r.probes().size(),
            r.limitedBy(),
            r.limitEvidence())
        : String.format(
            Locale.ROOT,
            "Highest sustained rate: %,.0f rows/s per job (%d probes; limited by %s: %s)",
            r.maxSustainableRowsPerSecond(),
            r.probes().size(),
            r.limitedBy(),
            r.limitEvidence());
  }
}
