package dev.ingestbench.harness.source;

import com.google.api.core.ApiFutures;
import com.google.api.gax.batching.BatchingSettings;
import com.google.api.gax.batching.FlowControlSettings;
import com.google.api.gax.batching.FlowController.LimitExceededBehavior;
import com.google.cloud.pubsub.v1.Publisher;
import com.google.common.util.concurrent.MoreExecutors;
import com.google.protobuf.UnsafeByteOperations;
import com.google.pubsub.v1.PubsubMessage;
import com.google.pubsub.v1.TopicName;
import dev.ingestbench.events.MessageAttributes;
import dev.ingestbench.pubsub.PublishOutcomes;
import dev.ingestbench.pubsub.PublishRetries;
import dev.ingestbench.pubsub.PubsubChannels;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Sends events to a Pub/Sub topic of the emulator with the official client, each published once.
 */
public final class PubsubEventSender implements EventSender {
  /** The client's queue: beyond it a send waits (and is late), rather than filling the heap. */
  private static final long MAX_OUTSTANDING = 20_000;

  private static final long MAX_OUTSTANDING_BYTES = 200_000_000L;

  private final PubsubChannels channels;
  private final Publisher publisher;

  /**
   * @param host the Pub/Sub emulator's HOST:PORT
   * @param topicPath {@code projects/P/topics/T}, which exists
   */
  public PubsubEventSender(String host, String topicPath) throws IOException {
    this.channels = PubsubChannels.forEmulatorHost(host);
    this.publisher =
        publisher(
            topicPath,
            channels,
            FlowControlSettings.newBuilder()
                .setMaxOutstandingElementCount(MAX_OUTSTANDING)
                .setMaxOutstandingRequestBytes(MAX_OUTSTANDING_BYTES)
                .setLimitExceededBehavior(LimitExceededBehavior.Block)
                .build());
  }

  /**
   * How long a batch may wait for more messages. Each request costs the client far more than each
   * message in it: this JVM pacing 100,000 messages of 500 B at 10,000 msg/s into pstest used 59%
   * and 64% of a vCPU with 5 ms, 48% and 52% with 20 ms, 36% and 37% with 50 ms (the JVM's first
   * seconds included); warm, 700,000 messages from the 30th second, 3 pairs: 0.10-0.11 of a vCPU
   * with 50 ms and batches of 1,000, 0.06-0.08 with 100 ms and 2,000 (and the pacer's 5 ms waits).
   * A live message waits at most this long more, which counts in its latency against the intended
   * send time (seconds in a round; a search's SLO is 10 s), not in publish -> visible.
   */
  private static final Duration BATCH_DELAY = Duration.ofMillis(100);

  /**
   * Messages per request at most: 10,000 msg/s for {@link #BATCH_DELAY} fit in one. The local
   * emulator takes it; Google's Pub/Sub takes at most 1,000 a request, so a sender for the real
   * service must not reuse this (this one only ever reaches the emulator's host).
   */
  private static final long MAX_BATCH_MESSAGES = 2_000L;

  /**
   * The project's event publisher for the emulator's {@code topicPath}: each message published
   * once, batches of up to {@link #MAX_BATCH_MESSAGES} messages or 3.5 MB (pstest takes requests up
   * to gRPC's 4 MiB) sent within {@link #BATCH_DELAY}; {@code flow} bounds its queue (null:
   * unbounded).
   */
  static Publisher publisher(String topicPath, PubsubChannels channels, FlowControlSettings flow)
      throws IOException {
    BatchingSettings.Builder batching =
        BatchingSettings.newBuilder()
            .setElementCountThreshold(MAX_BATCH_MESSAGES)
            .setRequestByteThreshold(3_500_000L)
            .setDelayThresholdDuration(BATCH_DELAY);
    if (flow != null) {
      batching.setFlowControlSettings(flow);
    }
    return Publisher.newBuilder(TopicName.parse(topicPath))
        .setChannelProvider(channels.channelProvider())
        .setCredentialsProvider(channels.credentialsProvider())
        .setRetrySettings(PublishRetries.publishOnce())
        .setBatchingSettings(batching.build())
        .build();
  }

  @Override
  public void send(long index, byte[] payload, long sentAtMillis, PublishOutcomes outcome) {
    PubsubMessage message =
        PubsubMessage.newBuilder()
            .setData(UnsafeByteOperations.unsafeWrap(payload))
            .putAttributes(MessageAttributes.EVENT_INDEX, Long.toString(index))
            .putAttributes(MessageAttributes.PUBLISHED_AT_MS, Long.toString(sentAtMillis))
            .build();
    ApiFutures.addCallback(publisher.publish(message), outcome, MoreExecutors.directExecutor());
  }

  @Override
  public void flush() {
    publisher.publishAllOutstanding();
  }

  /**
   * How long closing waits for the client to finish what it still holds. Its shutdown waits for
   * every outstanding message, and a message whose server is gone (a Pub/Sub emulator that died) is
   * retried for the whole {@link PublishRetries#BUDGET}: a run would stand still for minutes after
   * saying the emulator died. Whoever closes has waited for the replies it wanted already ({@link
   * PacedPublisher#close}: up to 30 s).
   */
  static final Duration SHUTDOWN_MAX = Duration.ofSeconds(10);

  /**
   * Shuts the client down, waiting at most {@link #SHUTDOWN_MAX} in all. Past that, the messages
   * still outstanding go on being retried by the client's own threads until its budget runs out,
   * and their callbacks (failures) come then, after this returned: whoever counts them has read its
   * counts before closing.
   */
  @Override
  public void close() throws Exception {
    long deadline = System.nanoTime() + SHUTDOWN_MAX.toNanos();
    AtomicReference<RuntimeException> failed = new AtomicReference<>();
    Thread shutdown =
        new Thread(
            () -> {
              try {
                publisher.shutdown();
              } catch (RuntimeException e) {
                failed.set(e);
              }
            },
            "pubsub-sender-shutdown");
    shutdown.setDaemon(true); // a message still retried must not keep the JVM from exiting
    try {
      shutdown.start();
      shutdown.join(SHUTDOWN_MAX.toMillis());
      if (failed.get() != null) {
        throw failed.get();
      }
      long left = deadline - System.nanoTime();
      if (!shutdown.isAlive() && left > 0) {
        publisher.awaitTermination(left, TimeUnit.NANOSECONDS);
      }
    } finally {
      channels.close();
    }
  }
}
