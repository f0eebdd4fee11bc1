package dev.ingestbench.pubsubload;

import com.sun.management.OperatingSystemMXBean;
import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * One measurement, as the framework runs it: the clients start, a burn-in lets them (and the JIT)
 * warm up, then a measurement window is sampled every second; then publishing stops, every publish
 * completes, and the subscriber drains until it has seen every acknowledged message (or stops
 * making progress), so missing and duplicate counts are final. Samples go to {@code samples.csv} as
 * they are taken.
 */
final class LoadRun {
  /**
   * The subscriber may take this long after publishing stopped before what it has not seen is
   * missing.
   */
  static final Duration DRAIN_STALL = Duration.ofSeconds(10);

  static final Duration DRAIN_MAX = Duration.ofSeconds(60);
  private static final int PROGRESS_EVERY_SECONDS = 5;

  private final LoadSettings settings;
  private final PubsubTarget target;
  private final Consumer<String> log;

  private final String run;

  LoadRun(LoadSettings settings, PubsubTarget target, String run, Consumer<String> log) {
    this.run = run;
    this.settings = settings;
    this.target = target;
    this.log = log;
  }

  LoadResult run(Path out) throws Exception {
    Files.createDirectories(out);
    target.ensure(settings);
    // Subscribing alone, the publisher is another process with its own id: take its messages.
    LoadCounters counters =
        new LoadCounters(settings.side() == LoadSettings.Side.SUBSCRIBE ? null : run);
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    List<LoadSample> samples = new ArrayList<>();
    Histogram publishLatency = new Histogram(3);
    Histogram endToEnd = new Histogram(3);
    Instant started = Instant.now();
    long windowCpuStart = 0;
    long windowCpuEnd = 0;
    DrainEnd drainEnd = DrainEnd.NONE;
    try (BufferedWriter csv =
            Files.newBufferedWriter(out.resolve(LoadFiles.SAMPLES), StandardCharsets.UTF_8);
        SubscriberLoad subscriber =
            settings.side().subscribes() ? new SubscriberLoad(settings, target, counters) : null) {
      csv.write(LoadSample.HEADER);
      csv.newLine();
      if (subscriber != null) {
        subscriber.start();
      }
      Snapshot last = Snapshot.of(counters);
      long burnIn = settings.burnIn().getSeconds();
      long total = burnIn + settings.duration().getSeconds();
      long startNanos = System.nanoTime();
      try (PublisherLoad publisher =
          settings.side().publishes() ? new PublisherLoad(settings, target, counters) : null) {
        if (publisher != null) {
          publisher.start(0);
        }
        // The sample of second s covers (s-1, s]: the window is (burnIn, total], so its CPU is read
        // at burnIn.
        if (burnIn == 0) {
          windowCpuStart = os.getProcessCpuTime();
        }
        for (long s = 1; s <= total; s++) {
          sleepUntil(startNanos + s * 1_000_000_000L);
          if (s == burnIn) {
            windowCpuStart = os.getProcessCpuTime();
          }
          String phase = s <= burnIn ? LoadSample.BURN_IN : LoadSample.MEASURE;
          Histogram p = counters.publishLatency.getIntervalHistogram();
          Histogram e = counters.endToEndLatency.getIntervalHistogram();
          if (phase.equals(LoadSample.MEASURE)) {
            publishLatency.add(p);
            endToEnd.add(e);
          }
          last = sample(counters, last, s, phase, p, e, samples, csv);
          if (s % PROGRESS_EVERY_SECONDS == 0 || s == total) {
            LoadSample x = samples.get(samples.size() - 1);
            log.accept(
                String.format(
                    Locale.ROOT,
                    "%ds of %ds (%s): published %,d/s, received %,d/s, errors %,d",
                    s,
                    total,
                    phase,
                    x.acked(),
                    x.received(),
                    counters.errors.sum() + counters.subscriberErrors.sum()));
          }
        }
        windowCpuEnd = os.getProcessCpuTime();
        if (publisher != null) {
          log.accept("Stopping the publisher; waiting for every publish to complete");
        }
      }
      // every publish future has completed: published = acked + errors
      if (subscriber != null && settings.side().publishes()) {
        drainEnd = drain(counters, last, startNanos, total, samples, csv);
      }
    }
    Instant ended = Instant.now();
    HarnessOverhead harness = HarnessOverhead.measure(settings.messageSizeBytes());
    double cores = (windowCpuEnd - windowCpuStart) / 1e9 / settings.duration().getSeconds();
    return new LoadResult(
        settings,
        started,
        ended,
        samples,
        counters,
        publishLatency,
        endToEnd,
        cores,
        harness,
        drainEnd);
  }

  /** How the drain after publishing ended. */
  enum DrainEnd {
    /** Every acknowledged message was received. */
    CAUGHT_UP,
    /** Nothing new arrived for {@link #DRAIN_STALL}: what was not received is missing. */
    STALLED,
    /**
     * Still receiving at {@link #DRAIN_MAX}: the subscriber is behind; unreceived is not proven
     * lost.
     */
    TIME_LIMIT,
    /** No drain: one side only. */
    NONE
  }

  /**
   * Keeps the subscriber running until it saw every acknowledged message, or stops making progress.
   */
  private DrainEnd drain(
      LoadCounters counters,
      Snapshot last,
      long startNanos,
      long total,
      List<LoadSample> samples,
      BufferedWriter csv)
      throws Exception {
    long acked = counters.acked.sum();
    log.accept(
        String.format(
            Locale.ROOT,
            "Draining: %,d of %,d acknowledged messages received so far",
            counters.receivedSequences.distinct(),
            acked));
    long s = total;
    long stalledSince = System.nanoTime();
    long seen = counters.receivedSequences.distinct();
    long deadline = System.nanoTime() + DRAIN_MAX.toNanos();
    DrainEnd end;
    while (true) {
      if (counters.ackedSequences.missingFrom(counters.receivedSequences) == 0) {
        end = DrainEnd.CAUGHT_UP;
        break;
      }
      if (System.nanoTime() - stalledSince >= DRAIN_STALL.toNanos()) {
        end = DrainEnd.STALLED;
        break;
      }
      if (System.nanoTime() >= deadline) {
        end = DrainEnd.TIME_LIMIT;
        break;
      }
      s++;
      sleepUntil(startNanos + s * 1_000_000_000L);
      last =
          sample(
              counters,
              last,
              s,
              LoadSample.DRAIN,
              counters.publishLatency.getIntervalHistogram(),
              counters.endToEndLatency.getIntervalHistogram(),
              samples,
              csv);
      long now = counters.receivedSequences.distinct();
      if (now > seen) {
        seen = now;
        stalledSince = System.nanoTime();
      }
      if ((s - total) % PROGRESS_EVERY_SECONDS == 0) {
        log.accept(
            String.format(
                Locale.ROOT,
                "Draining: %,d of %,d received (%,d/s)",
                now,
                acked,
                samples.get(samples.size() - 1).received()));
      }
    }
    // A last look: duplicates that arrive late are still counted.
    sleepUntil(System.nanoTime() + 1_000_000_000L);
    sample(
        counters,
        last,
        s + 1,
        LoadSample.DRAIN,
        counters.publishLatency.getIntervalHistogram(),
        counters.endToEndLatency.getIntervalHistogram(),
        samples,
        csv);
    if (end != DrainEnd.CAUGHT_UP) {
      log.accept(
          String.format(
              Locale.ROOT,
              "Drain ended (%s) with %,d acknowledged messages not received",
              end == DrainEnd.STALLED
                  ? "nothing arrived for " + DRAIN_STALL.getSeconds() + "s"
                  : "time limit " + DRAIN_MAX.getSeconds() + "s, still receiving",
              counters.ackedSequences.missingFrom(counters.receivedSequences)));
    }
    return end;
  }

  private static Snapshot sample(
      LoadCounters c,
      Snapshot last,
      long s,
      String phase,
      Histogram p,
      Histogram e,
      List<LoadSample> samples,
      BufferedWriter csv)
      throws IOException {
    Snapshot now = Snapshot.of(c);
    LoadSample x =
        new LoadSample(
            Instant.now().truncatedTo(ChronoUnit.SECONDS),
            s,
            phase,
            now.published - last.published,
            now.acked - last.acked,
            now.errors - last.errors,
            now.received - last.received,
            now.duplicates - last.duplicates,
            now.ackedBytes - last.ackedBytes,
            now.receivedBytes - last.receivedBytes,
            p.getTotalCount() == 0 ? 0 : p.getValueAtPercentile(99) / 1000.0,
            e.getTotalCount() == 0 ? 0 : e.getValueAtPercentile(99) / 1000.0);
    samples.add(x);
    csv.write(x.csv());
    csv.newLine();
    csv.flush();
    return now;
  }

  private static void sleepUntil(long nanos) throws InterruptedException {
    long wait = nanos - System.nanoTime();
    if (wait > 0) {
      Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
    }
  }

  /** Running totals at one instant. */
  private record Snapshot(
      long published,
      long acked,
      long errors,
      long received,
      long duplicates,
      long ackedBytes,
      long receivedBytes) {
    static Snapshot of(LoadCounters c) {
      return new Snapshot(
          c.published.sum(),
          c.acked.sum(),
          c.errors.sum(),
          c.received.sum(),
          c.receivedSequences.duplicates(),
          c.ackedBytes.sum(),
          c.receivedBytes.sum());
    }
  }
}
