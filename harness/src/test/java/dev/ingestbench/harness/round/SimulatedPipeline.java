package dev.ingestbench.harness.round;

import dev.ingestbench.contracts.EmulatorStatus;
import dev.ingestbench.contracts.ProcStat;
import dev.ingestbench.contracts.PublisherResult;
import dev.ingestbench.contracts.SendSchedule;
import dev.ingestbench.contracts.WindowLatency;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.harness.process.BigQueryEmulatorProcess;
import dev.ingestbench.harness.process.MachineCpu;
import dev.ingestbench.harness.source.EventSender;
import dev.ingestbench.harness.source.PacedPublisher;
import dev.ingestbench.harness.source.RatedPublisher;
import dev.ingestbench.harness.staged.Ticker;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

/**
 * A pipeline the max-rate search can probe in milliseconds: a clock that jumps ahead when the
 * search waits, a publisher that sends what it is asked up to its own capacity, and jobs that each
 * write first in first out at a capacity (rows/s, which may change with time) after a start-up
 * delay, every row visible a fixed delay after it was written. Their CPU follows their work: at
 * their nominal capacity the jobs use 90% of the machine's vCPUs together.
 */
final class SimulatedPipeline implements SearchWorld {
  static final long CONSUMER_PID = 101;
  static final long SOURCE_PID = 201;
  static final long SINK_PID = 202;
  private static final Duration STEP = Duration.ofMillis(100);

  private final double publisherCapacity;
  private final double nominalCapacity;
  private final DoubleUnaryOperator capacityAt;
  private final double startDelaySeconds;
  private final long visibleAfterMs;
  private final int vcpus = Runtime.getRuntime().availableProcessors();
  private final List<Job> jobs = new ArrayList<>();
  private final Clock clock = new Clock();
  private final Instant origin = Instant.parse("2026-11-29T00:00:00Z");

  private final EventSender roundTopic = nothingSent();
  private final List<Publisher> publishers = new ArrayList<>();
  private double elapsed; // seconds since origin
  private double failsAtSecond = Double.NaN;

  /** Rows a job wrote, first in first out: when each was meant to be sent and became visible. */
  private record Visible(long intendedMs, long visibleMs, long rows) {}

  /** One job: what it still has to write (intended send time, rows) and what became visible. */
  private static final class Job {
    final String name;
    final Deque<long[]> queue = new ArrayDeque<>();
    final List<Visible> visible = new ArrayList<>();
    double share = 1; // of the pipeline's capacity
    double owed; // a fraction of a row carried to the next step
    long accounted;
    double cpuSeconds;

    Job(String name) {
      this.name = name;
    }
  }

  /**
   * @param capacityAt each job's rows/s at a second since the start (its nominal capacity, at which
   *     it uses every vCPU, is {@code capacityAt(0)})
   */
  SimulatedPipeline(
      double publisherCapacity,
      DoubleUnaryOperator capacityAt,
      double startDelaySeconds,
      long visibleAfterMs,
      String... jobNames) {
    this.publisherCapacity = publisherCapacity;
    this.capacityAt = capacityAt;
    this.nominalCapacity = capacityAt.applyAsDouble(0);
    this.startDelaySeconds = startDelaySeconds;
    this.visibleAfterMs = visibleAfterMs;
    for (String name : jobNames) {
      jobs.add(new Job(name));
    }
  }

  /** A pipeline of jobs that write {@code capacity} rows/s each, from 20 s after the start. */
  static SimulatedPipeline of(double publisherCapacity, double capacity, String... jobNames) {
    return new SimulatedPipeline(publisherCapacity, t -> capacity, 20, 800, jobNames);
  }

  /** Job {@code name} writes only {@code share} of what the others do. */
  SimulatedPipeline slower(String name, double share) {
    jobs.stream().filter(j -> j.name.equals(name)).findFirst().orElseThrow().share = share;
    return this;
  }

  /** The search's publisher fails from this second on: its messages are refused. */
  SimulatedPipeline publisherFailsAt(double second) {
    this.failsAtSecond = second;
    return this;
  }

  /** The round the search probes: these jobs, their pids, the run's files in {@code out}. */
  RoundRateSearch.Round round(java.nio.file.Path out) {
    List<java.util.function.LongSupplier> pids = new ArrayList<>();
    for (int j = 0; j < jobs.size(); j++) {
      long pid = CONSUMER_PID + j;
      pids.add(() -> pid);
    }
    return new RoundRateSearch.Round(
        () -> roundTopic,
        "projects/ingestbench/topics/simulated",
        new TaxiRideGenerator(1, 500),
        new BigQueryEmulatorProcess.Address("localhost:1", "http://localhost:1"),
        jobs.stream().map(j -> j.name).toList(),
        pids,
        SOURCE_PID,
        SINK_PID,
        out,
        "round-simulated",
        500);
  }

  /** Seconds of simulated time so far. */
  synchronized double elapsed() {
    return elapsed;
  }

  @Override
  public Ticker ticker() {
    return clock;
  }

  @Override
  public synchronized RatedPublisher publisher(
      EventSender sender, TaxiRideGenerator generator, PacedPublisher.ScheduleSink schedule) {
    // Only the round's topic is read by the jobs; the publisher's capacity is measured elsewhere.
    Publisher p = new Publisher(sender == roundTopic);
    publishers.add(p);
    return p;
  }

  @Override
  public Sink sink(BigQueryEmulatorProcess.Address address) {
    return new Sink() {
      @Override
      public EmulatorStatus status() {
        return SimulatedPipeline.this.status();
      }

      @Override
      public WindowLatency windowLatency(String job, long fromMs, long toMs) {
        return SimulatedPipeline.this.windowLatency(job, fromMs, toMs);
      }

      @Override
      public void add(SendSchedule step) {}
    };
  }

  @Override
  public synchronized double cpuSeconds(long pid) {
    if (pid == SOURCE_PID || pid == SINK_PID) {
      return 0.1 * elapsed;
    }
    int job = (int) (pid - CONSUMER_PID);
    return job >= 0 && job < jobs.size() ? jobs.get(job).cpuSeconds : 0; // this JVM: nothing
  }

  @Override
  public synchronized MachineCpu machine() {
    double busy = 0.2 * elapsed;
    for (Job j : jobs) {
      busy += j.cpuSeconds;
    }
    double total = vcpus * elapsed;
    long jiffies = (long) (ProcStat.TICKS_PER_SECOND * total);
    return new MachineCpu(Math.min(jiffies, (long) (ProcStat.TICKS_PER_SECOND * busy)), jiffies, 0);
  }

  /** Moves the simulation on by {@code d}, a step of {@link #STEP} at a time. */
  private synchronized void advance(Duration d) {
    long steps = Math.max(1, d.toMillis() / STEP.toMillis());
    double dt = d.toMillis() / 1000.0 / steps;
    for (long s = 0; s < steps; s++) {
      elapsed += dt;
      long nowMs = origin.toEpochMilli() + Math.round(elapsed * 1000);
      for (Publisher p : publishers) {
        p.send(dt, nowMs);
      }
      double capacity = elapsed < startDelaySeconds ? 0 : capacityAt.applyAsDouble(elapsed);
      for (Job j : jobs) {
        j.owed += capacity * j.share * dt;
        long written = 0;
        while (j.owed >= 1 && !j.queue.isEmpty()) {
          long[] head = j.queue.peekFirst();
          long n = Math.min(head[1], (long) j.owed);
          head[1] -= n;
          j.owed -= n;
          written += n;
          j.visible.add(new Visible(head[0], nowMs + visibleAfterMs, n));
          if (head[1] == 0) {
            j.queue.pollFirst();
          }
        }
        if (j.queue.isEmpty()) {
          j.owed = Math.min(j.owed, 1); // idle capacity is not saved up
        }
        j.accounted += written;
        // At their nominal capacity the jobs use 90% of the machine together.
        j.cpuSeconds += written / nominalCapacity * vcpus * 0.9 / jobs.size();
      }
    }
  }

  private synchronized EmulatorStatus status() {
    List<EmulatorStatus.Job> list = new ArrayList<>();
    for (Job j : jobs) {
      // What a job has written counts as accounted for at once; it becomes visible later.
      long written = j.accounted;
      list.add(
          new EmulatorStatus.Job(
              j.name,
              written,
              written,
              0,
              0,
              0,
              written,
              List.of(),
              null,
              null,
              null,
              null,
              1,
              1,
              1,
              written * 500,
              List.of(),
              0,
              0,
              0,
              List.of(),
              null,
              0,
              0,
              0,
              0,
              List.of(),
              0));
    }
    return new EmulatorStatus(
        "localhost:1",
        "http://localhost:1",
        origin.toString(),
        1,
        1,
        1,
        0,
        0,
        0,
        0,
        list,
        0,
        0,
        0,
        0,
        "round-simulated",
        0,
        List.of(),
        0,
        0,
        0,
        0,
        null,
        List.of(),
        List.of(),
        null,
        List.of());
  }

  private synchronized WindowLatency windowLatency(String name, long fromMs, long toMs) {
    long nowMs = origin.toEpochMilli() + Math.round(elapsed * 1000);
    Job job = jobs.stream().filter(j -> j.name.equals(name)).findFirst().orElseThrow();
    List<Visible> in =
        job.visible.stream()
            .filter(v -> v.intendedMs >= fromMs && v.intendedMs < toMs && v.visibleMs <= nowMs)
            .sorted((a, b) -> Long.compare(a.visibleMs - a.intendedMs, b.visibleMs - b.intendedMs))
            .toList();
    long samples = in.stream().mapToLong(Visible::rows).sum();
    if (samples == 0) {
      return new WindowLatency(fromMs, toMs, null, null);
    }
    WindowLatency.Percentiles p =
        new WindowLatency.Percentiles(
            samples,
            at(in, samples, 0.5),
            at(in, samples, 0.9),
            at(in, samples, 0.99),
            at(in, samples, 0.999),
            at(in, samples, 1));
    return new WindowLatency(fromMs, toMs, p, p);
  }

  /** The latency below which {@code share} of the rows became visible. */
  private static long at(List<Visible> sorted, long samples, double share) {
    long seen = 0;
    for (Visible v : sorted) {
      seen += v.rows;
      if (seen >= share * samples) {
        return v.visibleMs - v.intendedMs;
      }
    }
    Visible last = sorted.get(sorted.size() - 1);
    return last.visibleMs - last.intendedMs;
  }

  /** A topic nobody reads: where the search measures its publisher alone. */
  static EventSender.Opener unreadTopic() {
    return SimulatedPipeline::nothingSent;
  }

  private static EventSender nothingSent() {
    return new EventSender() {
      @Override
      public void send(
          long index,
          byte[] payload,
          long sentAtMillis,
          dev.ingestbench.pubsub.PublishOutcomes outcome) {}

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
  }

  /** The simulated time: a wait moves it on at once. */
  private final class Clock implements Ticker {
    @Override
    public Instant now() {
      synchronized (SimulatedPipeline.this) {
        return origin.plusMillis(Math.round(elapsed * 1000));
      }
    }

    @Override
    public void sleep(Duration duration) throws InterruptedException {
      if (Thread.interrupted()) {
        throw new InterruptedException();
      }
      advance(duration);
    }
  }

  /**
   * Sends at the rate asked, at most its capacity (rate 0: its capacity); each message is meant to
   * be sent at its place in the rate's schedule, so a publisher behind its schedule shows as
   * latency.
   */
  private final class Publisher implements RatedPublisher {
    private final boolean read;
    private double rate = -1; // paused until told
    private long stepStartMs;
    private double sentInStep;
    private double handed;
    private Exception failure;

    Publisher(boolean read) {
      this.read = read;
    }

    @Override
    public void rate(double messagesPerSecond) {
      synchronized (SimulatedPipeline.this) {
        rate = messagesPerSecond;
        stepStartMs = origin.toEpochMilli() + Math.round(elapsed * 1000);
        sentInStep = 0;
      }
    }

    @Override
    public void pause() {
      synchronized (SimulatedPipeline.this) {
        rate = -1;
      }
    }

    /** One step of {@code dt} seconds, ending at {@code nowMs}. */
    void send(double dt, long nowMs) {
      if (rate < 0 || failure != null) {
        return;
      }
      if (!Double.isNaN(failsAtSecond) && elapsed >= failsAtSecond) {
        failure = new IOException("1 messages failed to publish; first: simulated refusal");
        return;
      }
      double can = (rate == 0 ? publisherCapacity : Math.min(rate, publisherCapacity)) * dt;
      long before = (long) handed;
      handed += can;
      long n = (long) handed - before;
      if (n == 0) {
        return;
      }
      long intendedMs =
          rate == 0 ? nowMs : stepStartMs + Math.round((sentInStep + n / 2.0) / rate * 1000);
      sentInStep += n;
      for (Job j : read ? jobs : List.<Job>of()) {
        j.queue.addLast(new long[] {intendedMs, n});
      }
    }

    @Override
    public long acknowledged() {
      return handed();
    }

    @Override
    public long handed() {
      synchronized (SimulatedPipeline.this) {
        return (long) handed;
      }
    }

    @Override
    public Exception failure() {
      synchronized (SimulatedPipeline.this) {
        return failure;
      }
    }

    @Override
    public void stop(Duration max) {
      pause();
    }

    @Override
    public PublisherResult result(
        String topic, int messageSize, double rate, Instant started, String runId) {
      long sent = handed();
      return new PublisherResult(
          topic,
          sent,
          sent,
          0,
          sent * messageSize,
          messageSize,
          rate,
          started.toString(),
          1,
          sent,
          1,
          runId);
    }

    @Override
    public void close() {
      pause();
    }
  }
}
