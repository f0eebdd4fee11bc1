package dev.ingestbench.publisher;

import com.google.api.core.ApiFuture;
import com.google.api.core.ApiFutures;
import com.google.api.gax.batching.BatchingSettings;
import com.google.api.gax.batching.FlowControlSettings;
import com.google.api.gax.batching.FlowController.LimitExceededBehavior;
import com.google.cloud.pubsub.v1.Publisher;
import com.google.common.util.concurrent.MoreExecutors;
import com.google.protobuf.UnsafeByteOperations;
import com.google.pubsub.v1.PubsubMessage;
import com.google.pubsub.v1.TopicName;
import dev.ingestbench.contracts.SendPacer;
import dev.ingestbench.events.MessageAttributes;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.pubsub.PublishOutcomes;
import dev.ingestbench.pubsub.PublishRetries;
import dev.ingestbench.pubsub.PubsubChannels;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.beam.sdk.metrics.Counter;
import org.apache.beam.sdk.metrics.Metrics;
import org.apache.beam.sdk.transforms.DoFn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes one {@link EventRange} of generated events with the official Pub/Sub client, at the
 * shard's share of the target rate, and outputs how many the service acknowledged.
 *
 * <p>Every publish outcome is counted: if any message failed, the bundle fails with the first
 * error, so a run never reports messages as published that the service did not accept.
 */
class PublishEventsFn extends DoFn<EventRange, Long> {
  private static final Logger LOG = LoggerFactory.getLogger(PublishEventsFn.class);
  private static final long PROGRESS_EVERY_NANOS = TimeUnit.SECONDS.toNanos(5);

  private final PublishSettings settings;
  private final Counter published = Metrics.counter("publisher", "messages_published");
  private final Counter failed = Metrics.counter("publisher", "publish_failures");
  private final Counter bytes = Metrics.counter("publisher", "bytes_published");

  private transient PubsubChannels channels;
  private transient Publisher publisher;
  private transient TaxiRideGenerator generator;

  PublishEventsFn(PublishSettings settings) {
    this.settings = settings;
  }

  @Setup
  public void setup() throws Exception {
    channels = PubsubChannels.forEmulatorHost(settings.emulatorHost());
    generator =
        new TaxiRideGenerator(
            settings.seed(), settings.messageSizeBytes(), settings.messageFormat());
    Publisher.Builder builder =
        Publisher.newBuilder(TopicName.parse(settings.topicPath()))
            .setBatchingSettings(batching(settings))
            .setRetrySettings(PublishRetries.publishOnce());
    if (channels.isEmulator()) {
      builder
          .setChannelProvider(channels.channelProvider())
          .setCredentialsProvider(channels.credentialsProvider());
    }
    publisher = builder.build();
  }

  static BatchingSettings batching(PublishSettings settings) {
    return BatchingSettings.newBuilder()
        .setElementCountThreshold(settings.batchMaxMessages())
        .setRequestByteThreshold(settings.batchMaxBytes())
        .setDelayThresholdDuration(Duration.ofMillis(settings.batchDelayMs()))
        .setFlowControlSettings(
            FlowControlSettings.newBuilder()
                .setMaxOutstandingElementCount(settings.maxOutstandingMessages())
                .setMaxOutstandingRequestBytes(settings.maxOutstandingBytes())
                .setLimitExceededBehavior(
                    settings.flowControlBehavior() == PublisherOptions.FlowControlBehavior.BLOCK
                        ? LimitExceededBehavior.Block
                        : LimitExceededBehavior.ThrowException)
                .build())
        .build();
  }

  @ProcessElement
  public void processElement(@Element EventRange range, OutputReceiver<Long> out)
      throws InterruptedException, IOException {
    SendPacer pacer = PacedRange.start(settings, range);
    PublishOutcomes outcome = new PublishOutcomes();
    long started = System.nanoTime();
    long nextProgress = started + PROGRESS_EVERY_NANOS;
    long bytesSent = 0;
    long handed = 0;
    for (long index = range.start(); index < range.end(); index++) {
      if (pacer != null) {
        pacer.awaitTurn(index);
      }
      byte[] payload = generator.message(index);
      bytesSent += payload.length;
      PubsubMessage message =
          PubsubMessage.newBuilder()
              .setData(UnsafeByteOperations.unsafeWrap(payload))
              .putAttributes(MessageAttributes.EVENT_INDEX, Long.toString(index))
              .putAttributes(
                  MessageAttributes.PUBLISHED_AT_MS, Long.toString(System.currentTimeMillis()))
              .build();
      ApiFuture<String> future = publisher.publish(message);
      ApiFutures.addCallback(future, outcome, MoreExecutors.directExecutor());
      handed++;
      if (outcome.firstFailure() != null) {
        break; // fail fast: the run is failed already, publishing more would only hide the cause
      }
      long now = System.nanoTime();
      if (now >= nextProgress) {
        long done = index - range.start() + 1;
        LOG.info(
            "range {}..{}: {} of {} handed to the client ({} msg/s), {} acknowledged",
            range.start(),
            range.end(),
            done,
            range.size(),
            Math.round(done / ((now - started) / 1e9)),
            outcome.acknowledged());
        nextProgress = now + PROGRESS_EVERY_NANOS;
      }
    }
    publisher.publishAllOutstanding();
    while (!outcome.allAnswered(handed)) {
      Thread.sleep(5); // callbacks run on the client's threads; every handed message gets one
    }
    published.inc(outcome.acknowledged());
    failed.inc(outcome.failed());
    bytes.inc(bytesSent);
    if (outcome.failed() > 0) {
      Throwable cause = outcome.firstFailure();
      throw new IllegalStateException(
          outcome.failed()
              + " of "
              + handed
              + " messages failed to publish to "
              + settings.topicPath()
              + "; first error: "
              + cause,
          cause);
    }
    out.output(outcome.acknowledged());
  }

  @Teardown
  public void teardown() throws InterruptedException {
    if (publisher != null) {
      publisher.shutdown();
      publisher.awaitTermination(1, TimeUnit.MINUTES);
    }
    if (channels != null) {
      channels.close();
    }
  }
}
