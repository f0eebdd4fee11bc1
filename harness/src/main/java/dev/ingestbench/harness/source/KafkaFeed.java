package dev.ingestbench.harness.source;

import dev.ingestbench.publisher.KafkaEventRecords;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToLongFunction;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * Feeds a scaled-down Kafka run's topic as fast as its jobs read it: whenever a job being fed has
 * fewer than {@link #low} published messages it has not accounted for, it publishes up to {@link
 * #high} more. Records are those of the publisher ({@code event_index} and {@code published_at_ms}
 * headers, no key), from the same generator.
 *
 * <p>Why: Kafka reads a backlog fast (a local job read ~120,000 rows/s of 88 B Avro), so a backlog
 * scaled down with the stages is gone in seconds (round 6 at {@code --scale 0.02}: job a had
 * nothing left to read in its second stage), and one sized to last depends on how fast this machine
 * reads.
 *
 * <p>Why one topic for all jobs, unlike {@link PubsubFeed}: every job reads the whole topic through
 * its own consumer group (or the jobs of a shared group read it once between them), as in the
 * published rounds, and a Kafka topic keeps its records whoever has read them. A job is verified on
 * what was published until it stopped: what its group had not read of that is what it left.
 */
public final class KafkaFeed extends TopUpFeed {
  /**
   * How much the topic may hold unread by the fastest job being fed, in bytes (a slower job has
   * more); the message size sets the count.
   */
  static final long HIGH_BYTES = 200_000_000L;

  static final long MIN_HIGH = 40_000;
  static final long MAX_HIGH = 4_000_000;

  private final String topic;
  private final KafkaProducer<byte[], byte[]> producer;
  private final Map<String, Job> jobs = new LinkedHashMap<>();
  private volatile long published;
  private int topUps;

  /** One job: whether it is fed, and what was published to the topic until it stopped. */
  private static final class Job {
    volatile boolean feeding;
    volatile long publishedUntilStopped = -1;

    /** The fewest messages it had waiting while fed, when the feed topped up; -1 before. */
    volatile long minDepth = -1;
  }

  /**
   * @param seed the seed of the events (the BigQuery emulator checks every row against it)
   * @param accounted reads every job's accounted-for messages now (for the jobs of a shared
   *     consumer group, the group's); called once per tick while a job is fed
   */
  public KafkaFeed(
      String bootstrapServers,
      String topic,
      int messageSize,
      String messageFormat,
      long seed,
      AccountedCounts accounted) {
    this(bootstrapServers, topic, messageSize, messageFormat, seed, accounted, high(messageSize));
  }

  /** With {@code high} given: tests feed a few thousand messages. */
  KafkaFeed(
      String bootstrapServers,
      String topic,
      int messageSize,
      String messageFormat,
      long seed,
      AccountedCounts accounted,
      long high) {
    super(messageSize, messageFormat, seed, accounted, high, "kafka-feed");
    this.topic = topic;
    this.producer = KafkaEventSender.producer(bootstrapServers);
  }

  /** At most {@link #HIGH_BYTES} of messages, within {@link #MIN_HIGH}..{@link #MAX_HIGH}. */
  public static long high(int messageSize) {
    return high(HIGH_BYTES, messageSize, MIN_HIGH, MAX_HIGH);
  }

  /**
   * Publishes at most {@code messages} to the topic (event indexes 0 .. messages - 1), then no
   * more: a backlog published in tranches, topped up to {@link #high} unread by the fastest job.
   */
  public KafkaFeed upTo(long messages) {
    this.limit = messages;
    return this;
  }

  public synchronized void add(String job) {
    jobs.put(job, new Job());
  }

  /**
   * Tops the topic up to {@link #high} unread by {@code job} and keeps feeding it until {@link
   * #stop}.
   */
  @Override
  public void start(String job) throws Exception {
    Job j = job(job);
    j.publishedUntilStopped = -1;
    topUp(Math.max(0, published - accounted.read().applyAsLong(job)));
    j.feeding = true;
    startLoop();
  }

  /**
   * Stops feeding {@code job} (the topic may still grow for the others while its consumer stops).
   */
  @Override
  public void stop(String job) {
    job(job).feeding = false;
  }

  /**
   * Its consumer has stopped: what was published until now is what it is verified against. Taken
   * after the consumer stopped, not when it was asked to, since it reads until then.
   */
  @Override
  public void stopped(String job) {
    Job j = job(job);
    j.feeding = false;
    if (j.publishedUntilStopped < 0) {
      j.publishedUntilStopped = published;
    }
  }

  /** Stops feeding every job (a stage that waits until the jobs drain what they have). */
  @Override
  public void stopAll() {
    jobs.values().forEach(j -> j.feeding = false);
  }

  /** Messages published to the topic for {@code job}: until it stopped, or until now. */
  @Override
  public long published(String job) {
    Job j = job(job);
    return j.publishedUntilStopped >= 0 ? j.publishedUntilStopped : published;
  }

  /** What the feed published, for the segment's {@code feed.json}. */
  @Override
  public synchronized Result result() {
    Map<String, Result.Job> out = new LinkedHashMap<>();
    jobs.forEach((name, j) -> out.put(name, new Result.Job(published(name), j.minDepth)));
    return new Result(
        topic, low, high, published, topUps, failure() == null ? null : failure().toString(), out);
  }

  /**
   * What a Kafka feed published: the topic, the bounds it kept, messages acknowledged in all and
   * top-ups; per job what was published until it stopped and the fewest it had waiting (-1: never
   * measured).
   */
  public record Result(
      String topic,
      long low,
      long high,
      long published,
      int topUps,
      String failure,
      Map<String, Job> jobs) {
    public record Job(long published, long minDepth) {}
  }

  private Job job(String name) {
    Job j = jobs.get(name);
    if (j == null) {
      throw new IllegalArgumentException("job " + name + " is not fed");
    }
    return j;
  }

  @Override
  boolean anyFeeding() {
    return jobs.values().stream().anyMatch(j -> j.feeding);
  }

  /** The one topic is topped up for the job being fed that has the fewest unread. */
  @Override
  void tick(ToLongFunction<String> accountedNow) throws Exception {
    long fewest = Long.MAX_VALUE;
    for (Map.Entry<String, Job> e : jobs.entrySet()) {
      if (e.getValue().feeding) {
        long waiting = published - accountedNow.applyAsLong(e.getKey());
        fewest = Math.min(fewest, waiting);
        // Once the topic has the whole count, the jobs drain the last tranche: none is due.
        if (waiting < low && published < limit) {
          Job j = e.getValue();
          j.minDepth = j.minDepth < 0 ? waiting : Math.min(j.minDepth, waiting);
        }
      }
    }
    if (fewest < low) {
      topUp(Math.max(0, fewest));
    }
  }

  /**
   * Publishes what brings {@code waiting} messages to {@link #high}, and waits for the broker's
   * acks.
   */
  private synchronized void topUp(long waiting) throws Exception {
    long first = published;
    long end = tranche(first, waiting);
    if (end <= first) {
      return;
    }
    AtomicLong acked = new AtomicLong();
    AtomicReference<Exception> error = new AtomicReference<>();
    for (long index = first; index < end; index++) {
      long now = System.currentTimeMillis();
      producer.send(
          KafkaEventRecords.of(topic, index, generator.message(index), now),
          (meta, e) -> {
            if (e == null) {
              acked.incrementAndGet();
            } else {
              error.compareAndSet(null, e);
            }
          });
    }
    producer.flush(); // every callback has run once flush returns
    // All or nothing: a failed record fails the feed, and the run then says it cannot verify.
    if (error.get() != null || acked.get() != end - first) {
      throw new IOException(
          (end - first - acked.get())
              + " of "
              + (end - first)
              + " records were not"
              + " acknowledged by Kafka topic "
              + topic
              + "; first error: "
              + error.get(),
          error.get());
    }
    published = end;
    topUps++;
    toppedUp();
  }

  @Override
  public void close() throws InterruptedException {
    stopLoop();
    producer.close(Duration.ofSeconds(10));
  }
}
