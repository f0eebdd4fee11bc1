package dev.ingestbench.harness.source;

import com.google.api.core.ApiFuture;
import com.google.api.core.ApiFutures;
import com.google.cloud.pubsub.v1.Publisher;
import com.google.protobuf.UnsafeByteOperations;
import com.google.pubsub.v1.PubsubMessage;
import dev.ingestbench.events.MessageAttributes;
import dev.ingestbench.pubsub.PubsubAdmin;
import dev.ingestbench.pubsub.PubsubChannels;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

/**
 * Feeds each job of a local Pub/Sub run its own topic, as fast as the job reads it: whenever fewer
 * than {@link #low} published messages are not yet accounted for, it publishes up to {@link #high}.
 *
 * <p>Why not a backlog published up front: the Pub/Sub emulator (pstest) answers a Pull in time
 * that grows with what the subscription holds. Measured on 2 vCPUs: one job read ~3,100 rows/s of
 * 10 KB messages from 36,000 held, and ~170 rows/s from 432,000; pstest itself took a whole core. A
 * scaled-down backlog sized to last the stages would measure the emulator, and one that fits it is
 * read in seconds. Fed shallow, every running job has messages to read for the whole of its stages.
 *
 * <p>Why one topic per job: a subscription keeps every message published to its topic, read or not,
 * so a job not yet started (or stopped) would hold everything the others were fed. Each job's topic
 * carries its own event indexes 0..n-1, so each job is verified against exactly what it was fed.
 */
public final class PubsubFeed extends TopUpFeed {
  /** How much a fed subscription may hold at most, in bytes; the message size sets the count. */
  static final long HIGH_BYTES = 200_000_000L;

  /** Bounds of {@link #high} in messages, whatever the size. */
  static final int MIN_HIGH = 4_000;

  static final int MAX_HIGH = 40_000;

  private final String host;
  private final String project;
  private final PubsubChannels channels;
  private final Map<String, Fed> jobs = new LinkedHashMap<>();

  /** One job's topic and what it was fed. */
  private static final class Fed {
    final String topicPath;
    final Publisher publisher;
    volatile long published;
    volatile boolean feeding;

    /** The fewest messages it had waiting while fed, from the second top-up on; -1 before. */
    volatile long minDepth = -1;

    int topUps;

    Fed(String topicPath, Publisher publisher) {
      this.topicPath = topicPath;
      this.publisher = publisher;
    }
  }

  /**
   * @param host the Pub/Sub emulator's HOST:PORT
   * @param seed the seed of the events (the BigQuery emulator checks every row against it)
   * @param accounted reads every job's accounted-for messages now; called once per tick while a job
   *     is fed
   */
  public PubsubFeed(
      String host,
      String project,
      int messageSize,
      String messageFormat,
      long seed,
      AccountedCounts accounted) {
    this(host, project, messageSize, messageFormat, seed, accounted, high(messageSize));
  }

  /** With {@code high} given: tests feed a few thousand messages, not {@link #MIN_HIGH}. */
  PubsubFeed(
      String host,
      String project,
      int messageSize,
      String messageFormat,
      long seed,
      AccountedCounts accounted,
      long high) {
    super(messageSize, messageFormat, seed, accounted, high, "pubsub-feed");
    this.host = host;
    this.project = project;
    this.channels = PubsubChannels.forEmulatorHost(host);
  }

  /** At most {@link #HIGH_BYTES} of messages, within {@link #MIN_HIGH}..{@link #MAX_HIGH}. */
  public static long high(int messageSize) {
    return high(HIGH_BYTES, messageSize, MIN_HIGH, MAX_HIGH);
  }

  /**
   * Feeds each job at most {@code messages} (event indexes 0 .. messages - 1), then no more: a
   * backlog published in tranches, never more than {@link #high} waiting.
   */
  public PubsubFeed upTo(long messages) {
    this.limit = messages;
    return this;
  }

  /**
   * Creates job {@code job}'s topic, named as its subscription, and the subscription (before
   * anything is fed).
   */
  public synchronized void add(String job, String subscription) throws IOException {
    String topicPath = "projects/" + project + "/topics/" + subscription;
    PubsubAdmin.ensureTopicAndSubscriptions(
        host, topicPath, List.of("projects/" + project + "/subscriptions/" + subscription));
    Publisher publisher = PubsubEventSender.publisher(topicPath, channels, null);
    jobs.put(job, new Fed(topicPath, publisher));
  }

  /** Fills job {@code job}'s topic to {@link #high} and keeps feeding it until {@link #stop}. */
  @Override
  public void start(String job) throws Exception {
    Fed fed = fed(job);
    topUp(fed, Math.max(0, fed.published - accounted.read().applyAsLong(job)));
    fed.feeding = true;
    startLoop();
  }

  /** Stops feeding job {@code job}: what it was fed so far is what it is verified against. */
  @Override
  public void stop(String job) {
    fed(job).feeding = false;
  }

  /** Stops feeding every job (a stage that waits until the jobs drain what they have). */
  @Override
  public void stopAll() {
    jobs.values().forEach(f -> f.feeding = false);
  }

  /** Messages published to job {@code job}'s topic and acknowledged by Pub/Sub. */
  @Override
  public long published(String job) {
    return fed(job).published;
  }

  /** What each job was fed, for the segment's {@code feed.json}. */
  @Override
  public Result result() {
    Map<String, Result.Job> out = new LinkedHashMap<>();
    jobs.forEach(
        (job, f) -> out.put(job, new Result.Job(f.topicPath, f.published, f.topUps, f.minDepth)));
    return new Result(low, high, failure() == null ? null : failure().toString(), out);
  }

  /**
   * What a feed published: per job its topic, messages acknowledged, top-ups and the fewest it had
   * waiting while fed (-1: never measured); {@code low}/{@code high} the bounds it kept.
   */
  public record Result(long low, long high, String failure, Map<String, Job> jobs) {
    public record Job(String topic, long published, int topUps, long minDepth) {}
  }

  private Fed fed(String job) {
    Fed fed = jobs.get(job);
    if (fed == null) {
      throw new IllegalArgumentException("job " + job + " has no fed topic");
    }
    return fed;
  }

  @Override
  boolean anyFeeding() {
    return jobs.values().stream().anyMatch(f -> f.feeding);
  }

  /** Each job being fed with fewer than {@link #low} waiting gets its own top-up. */
  @Override
  void tick(ToLongFunction<String> accountedNow) throws Exception {
    for (Map.Entry<String, Fed> e : jobs.entrySet()) {
      Fed fed = e.getValue();
      long waiting = fed.published - accountedNow.applyAsLong(e.getKey());
      // A job that has had its whole count drains the last tranche: no top-up is due.
      if (fed.feeding && waiting < low && fed.published < limit) {
        fed.minDepth = fed.minDepth < 0 ? waiting : Math.min(fed.minDepth, waiting);
        topUp(fed, Math.max(0, waiting));
      }
    }
  }

  /**
   * Publishes what brings {@code waiting} messages to {@link #high}, and waits for Pub/Sub's acks.
   */
  private void topUp(Fed fed, long waiting) throws InterruptedException, ExecutionException {
    long first = fed.published;
    long end = tranche(first, waiting);
    if (end <= first) {
      return; // it has had every message it is to get
    }
    List<ApiFuture<String>> sent = new ArrayList<>();
    for (long index = first; index < end; index++) {
      sent.add(
          fed.publisher.publish(
              PubsubMessage.newBuilder()
                  .setData(UnsafeByteOperations.unsafeWrap(generator.message(index)))
                  .putAttributes(MessageAttributes.EVENT_INDEX, Long.toString(index))
                  .putAttributes(
                      MessageAttributes.PUBLISHED_AT_MS, Long.toString(System.currentTimeMillis()))
                  .build()));
    }
    fed.publisher.publishAllOutstanding();
    // All or nothing: a failed publish fails the feed, and the run then says it cannot verify.
    ApiFutures.allAsList(sent).get();
    fed.published = end;
    fed.topUps++;
    toppedUp();
  }

  @Override
  public void close() throws InterruptedException {
    stopLoop();
    for (Fed f : jobs.values()) {
      f.publisher.shutdown();
      f.publisher.awaitTermination(10, TimeUnit.SECONDS);
    }
    channels.close();
  }
}
