package dev.ingestbench.pubsubload;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One load test's parameters as one validated value (as in Google's Pub/Sub load-test framework):
 * every side, thread and client setting, so a sweep or a grid trial is this value with one field
 * changed, and a bad value fails before anything starts.
 *
 * @param threads publisher threads generating load for one publisher client (the framework: 5 per
 *     core)
 * @param ratePerSecond target publish rate over all threads (a rate limiter), 0 for as fast as the
 *     client takes
 * @param subscriberMaxOutstandingMessages subscriber flow control, 0 for no message limit (the
 *     framework's choice)
 * @param pullBatch unary pull: messages asked for per Pull request
 * @param messages how many messages each grid trial publishes
 */
public record LoadSettings(
    Side side,
    String topic,
    String subscription,
    int threads,
    int messageSizeBytes,
    long batchMaxMessages,
    long batchMaxBytes,
    Duration batchDelay,
    long maxOutstandingMessages,
    long maxOutstandingBytes,
    double ratePerSecond,
    PullMode pull,
    int parallelPullCount,
    int subscriberThreads,
    long subscriberMaxOutstandingMessages,
    long subscriberMaxOutstandingBytes,
    int pullBatch,
    Duration burnIn,
    Duration duration,
    long messages) {

  /** Which clients a load test runs. */
  public enum Side {
    PUBLISH,
    SUBSCRIBE,
    BOTH;

    boolean publishes() {
      return this != SUBSCRIBE;
    }

    boolean subscribes() {
      return this != PUBLISH;
    }
  }

  /**
   * Streaming pull (the client's Subscriber) or unary Pull requests of {@code pullBatch} messages.
   */
  public enum PullMode {
    STREAMING,
    UNARY
  }

  /** The service's limits on one Publish request. */
  static final long MAX_BATCH_MESSAGES = 1_000;

  static final long MAX_BATCH_BYTES = 10_000_000;

  /** pstest keeps gRPC's 4 MiB request limit: batches for an emulator stay under it. */
  static final long EMULATOR_MAX_BATCH_BYTES = 3_500_000;

  /**
   * Checks every value, naming the flag, the value and the fix; throws IllegalArgumentException.
   */
  public LoadSettings validated() {
    require(threads >= 1 && threads <= 1024, "--threads", threads, "use 1..1024 publisher threads");
    require(
        messageSizeBytes >= 1 && messageSizeBytes <= 10_000_000,
        "--message-size",
        messageSizeBytes,
        "use 1..10000000 bytes (Pub/Sub's 10 MB message limit)");
    require(
        batchMaxMessages >= 1 && batchMaxMessages <= MAX_BATCH_MESSAGES,
        "--batch-messages",
        batchMaxMessages,
        "use 1..1000, the service's limit per Publish request");
    require(
        batchMaxBytes >= 1 && batchMaxBytes <= MAX_BATCH_BYTES,
        "--batch-bytes",
        batchMaxBytes,
        "use 1..10000000, the service's 10 MB limit per Publish request");
    require(
        !batchDelay.isNegative() && !batchDelay.isZero(),
        "--batch-delay",
        batchDelay.toMillis() + "ms",
        "use 1ms or more");
    require(
        maxOutstandingMessages >= batchMaxMessages,
        "--max-outstanding-messages",
        maxOutstandingMessages,
        "allow at least one full batch (--batch-messages " + batchMaxMessages + ")");
    require(
        maxOutstandingBytes >= messageSizeBytes,
        "--max-outstanding-bytes",
        maxOutstandingBytes,
        "allow at least one message (--message-size " + messageSizeBytes + ")");
    require(
        ratePerSecond >= 0,
        "--rate",
        ratePerSecond,
        "use 0 (as fast as the client takes) or a positive rate");
    require(
        parallelPullCount >= 1 && parallelPullCount <= 256,
        "--parallel-pull",
        parallelPullCount,
        "use 1..256 streams");
    require(
        subscriberThreads >= 1 && subscriberThreads <= 1024,
        "--subscriber-threads",
        subscriberThreads,
        "use 1..1024");
    require(
        subscriberMaxOutstandingMessages >= 0,
        "--subscriber-max-outstanding-messages",
        subscriberMaxOutstandingMessages,
        "use 0 (no limit) or more");
    require(
        subscriberMaxOutstandingBytes >= messageSizeBytes,
        "--subscriber-max-outstanding-bytes",
        subscriberMaxOutstandingBytes,
        "allow at least one message (--message-size " + messageSizeBytes + ")");
    require(
        pullBatch >= 1 && pullBatch <= 1_000,
        "--pull-batch",
        pullBatch,
        "use 1..1000 messages per Pull");
    require(!burnIn.isNegative(), "--burn-in", burnIn, "use 0s or more");
    require(
        duration.getSeconds() >= 2,
        "--duration",
        duration,
        "measure for at least 2s (rates are per-second samples)");
    require(messages >= 1, "--messages", messages, "use 1 or more");
    return this;
  }

  /** Batches bound for an emulator stay under its 4 MiB request limit. */
  long batchBytesFor(boolean emulator) {
    return emulator ? Math.min(batchMaxBytes, EMULATOR_MAX_BATCH_BYTES) : batchMaxBytes;
  }

  /** The settings as a flat map (for summary.json and the report's settings table). */
  public Map<String, Object> describe() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("side", side.name().toLowerCase(Locale.ROOT));
    m.put("topic", topic);
    if (side.subscribes()) {
      m.put("subscription", subscription);
    }
    m.put("message_size_bytes", messageSizeBytes);
    if (side.publishes()) {
      m.put("threads", threads);
      m.put("batch_max_messages", batchMaxMessages);
      m.put("batch_max_bytes", batchMaxBytes);
      m.put("batch_delay_ms", batchDelay.toMillis());
      m.put("max_outstanding_messages", maxOutstandingMessages);
      m.put("max_outstanding_bytes", maxOutstandingBytes);
      m.put("rate_per_second", ratePerSecond);
    }
    if (side.subscribes()) {
      m.put("pull", pull.name().toLowerCase(Locale.ROOT));
      if (pull == PullMode.STREAMING) {
        m.put("parallel_pull_count", parallelPullCount);
        m.put("subscriber_max_outstanding_messages", subscriberMaxOutstandingMessages);
        m.put("subscriber_max_outstanding_bytes", subscriberMaxOutstandingBytes);
      } else {
        m.put("pull_batch", pullBatch);
      }
      m.put("subscriber_threads", subscriberThreads);
    }
    m.put("burn_in_seconds", burnIn.getSeconds());
    m.put("duration_seconds", duration.getSeconds());
    return m;
  }

  private static void require(boolean ok, String flag, Object value, String fix) {
    if (!ok) {
      throw new IllegalArgumentException(flag + " " + value + " is out of range: " + fix);
    }
  }

  /** A copy with one field changed, for sweeps, grid trials and the max-rate search's probes. */
  LoadSettings withThreads(int v) {
    return with(c -> c.threads = v);
  }

  LoadSettings withMessageSize(int v) {
    return with(c -> c.messageSizeBytes = v);
  }

  LoadSettings withPullBatch(int v) {
    return with(c -> c.pullBatch = v);
  }

  LoadSettings withParallelPull(int v) {
    return with(c -> c.parallelPullCount = v);
  }

  LoadSettings withBatching(long maxMessages, long maxBytes, Duration delay) {
    return with(
        c -> {
          c.batchMaxMessages = maxMessages;
          c.batchMaxBytes = maxBytes;
          c.batchDelay = delay;
        });
  }

  LoadSettings withSide(Side v) {
    return with(c -> c.side = v);
  }

  LoadSettings withRate(double v) {
    return with(c -> c.ratePerSecond = v);
  }

  LoadSettings withTopic(String newTopic, String newSubscription) {
    return with(
        c -> {
          c.topic = newTopic;
          c.subscription = newSubscription;
        });
  }

  private LoadSettings with(Consumer<Copy> change) {
    Copy c = new Copy(this);
    change.accept(c);
    return c.build();
  }

  /** The fields, changeable: one constructor call for every with... method. */
  private static final class Copy {
    Side side;
    String topic;
    String subscription;
    int threads;
    int messageSizeBytes;
    long batchMaxMessages;
    long batchMaxBytes;
    Duration batchDelay;
    long maxOutstandingMessages;
    long maxOutstandingBytes;
    double ratePerSecond;
    PullMode pull;
    int parallelPullCount;
    int subscriberThreads;
    long subscriberMaxOutstandingMessages;
    long subscriberMaxOutstandingBytes;
    int pullBatch;
    Duration burnIn;
    Duration duration;
    long messages;

    Copy(LoadSettings s) {
      side = s.side;
      topic = s.topic;
      subscription = s.subscription;
      threads = s.threads;
      messageSizeBytes = s.messageSizeBytes;
      batchMaxMessages = s.batchMaxMessages;
      batchMaxBytes = s.batchMaxBytes;
      batchDelay = s.batchDelay;
      maxOutstandingMessages = s.maxOutstandingMessages;
      maxOutstandingBytes = s.maxOutstandingBytes;
      ratePerSecond = s.ratePerSecond;
      pull = s.pull;
      parallelPullCount = s.parallelPullCount;
      subscriberThreads = s.subscriberThreads;
      subscriberMaxOutstandingMessages = s.subscriberMaxOutstandingMessages;
      subscriberMaxOutstandingBytes = s.subscriberMaxOutstandingBytes;
      pullBatch = s.pullBatch;
      burnIn = s.burnIn;
      duration = s.duration;
      messages = s.messages;
    }

    LoadSettings build() {
      return new LoadSettings(
          side,
          topic,
          subscription,
          threads,
          messageSizeBytes,
          batchMaxMessages,
          batchMaxBytes,
          batchDelay,
          maxOutstandingMessages,
          maxOutstandingBytes,
          ratePerSecond,
          pull,
          parallelPullCount,
          subscriberThreads,
          subscriberMaxOutstandingMessages,
          subscriberMaxOutstandingBytes,
          pullBatch,
          burnIn,
          duration,
          messages);
    }
  }
}
