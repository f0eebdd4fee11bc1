package dev.ingestbench.pubsubload;

import com.google.api.core.ApiFuture;
import com.google.api.core.ApiFutureCallback;
import com.google.api.core.ApiFutures;
import com.google.api.gax.batching.BatchingSettings;
import com.google.api.gax.batching.FlowControlSettings;
import com.google.api.gax.batching.FlowController.LimitExceededBehavior;
import com.google.cloud.pubsub.v1.Publisher;
import com.google.common.util.concurrent.MoreExecutors;
import com.google.common.util.concurrent.RateLimiter;
import com.google.pubsub.v1.PubsubMessage;
import com.google.pubsub.v1.TopicName;
import dev.ingestbench.pubsub.PublishRetries;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The publisher side: {@code threads} threads publishing through one client (its batching and flow
 * control as configured) in a tight loop, or at a target rate through a shared rate limiter. Each
 * publish is timed from the call to its future completing.
 */
final class PublisherLoad implements AutoCloseable {
  private final LoadSettings settings;
  private final LoadCounters counters;
  private final LoadMessages messages;
  private final Publisher publisher;
  private final AtomicLong nextSequence = new AtomicLong();
  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean stopping;

  PublisherLoad(LoadSettings settings, PubsubTarget target, LoadCounters counters)
      throws IOException {
    this.settings = settings;
    this.counters = counters;
    this.messages =
        new LoadMessages(
            settings.messageSizeBytes(), counters.run != null ? counters.run : Runs.id());
    Publisher.Builder builder =
        Publisher.newBuilder(TopicName.parse(target.topicPath(settings.topic())))
            .setBatchingSettings(batching(settings, target.isEmulator()))
            .setRetrySettings(PublishRetries.publishOnce());
    if (target.isEmulator()) {
      builder
          .setChannelProvider(target.channelProvider())
          .setCredentialsProvider(target.credentialsProvider());
    }
    this.publisher = builder.build();
  }

  static BatchingSettings batching(LoadSettings s, boolean emulator) {
    return BatchingSettings.newBuilder()
        .setElementCountThreshold(s.batchMaxMessages())
        .setRequestByteThreshold(s.batchBytesFor(emulator))
        .setDelayThresholdDuration(s.batchDelay())
        .setFlowControlSettings(
            FlowControlSettings.newBuilder()
                .setMaxOutstandingElementCount(s.maxOutstandingMessages())
                .setMaxOutstandingRequestBytes(s.maxOutstandingBytes())
                .setLimitExceededBehavior(LimitExceededBehavior.Block)
                .build())
        .build();
  }

  /**
   * Starts publishing until {@link #stop}, or until {@code limit} messages (0: no limit) are handed
   * over.
   */
  void start(long limit) {
    RateLimiter limiter =
        settings.ratePerSecond() > 0 ? RateLimiter.create(settings.ratePerSecond()) : null;
    for (int i = 0; i < settings.threads(); i++) {
      Thread t = new Thread(() -> publishLoop(limiter, limit), "publisher-" + i);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
  }

  private void publishLoop(RateLimiter limiter, long limit) {
    while (!stopping) {
      if (limiter != null) {
        limiter.acquire();
      }
      long seq = nextSequence.getAndIncrement();
      if (limit > 0 && seq >= limit) {
        return;
      }
      publishOne(seq);
    }
  }

  private void publishOne(long seq) {
    PubsubMessage message = messages.message(seq);
    long started = System.nanoTime();
    ApiFuture<String> future;
    try {
      future = publisher.publish(message);
    } catch (RuntimeException e) {
      counters.published.increment();
      counters.errors.increment();
      if (counters.firstPublishError == null) {
        counters.firstPublishError = e;
      }
      return;
    }
    counters.published.increment();
    ApiFutures.addCallback(
        future,
        new ApiFutureCallback<>() {
          @Override
          public void onSuccess(String id) {
            counters.lastCompletionNanos.accumulateAndGet(System.nanoTime(), Math::max);
            counters.publishLatency.recordValue(Math.max(1, (System.nanoTime() - started) / 1_000));
            counters.acked.increment();
            counters.ackedBytes.add(messages.sizeBytes());
            counters.ackedSequences.mark(seq);
          }

          @Override
          public void onFailure(Throwable t) {
            counters.lastCompletionNanos.accumulateAndGet(System.nanoTime(), Math::max);
            counters.errors.increment();
            if (counters.firstPublishError == null) {
              counters.firstPublishError = t;
            }
          }
        },
        MoreExecutors.directExecutor());
  }

  /** Stops handing out messages; what is in flight completes in {@link #close}. */
  void stop() throws InterruptedException {
    stopping = true;
    for (Thread t : threads) {
      t.join();
    }
  }

  /** Waits for the threads to hand over a limited run's messages. */
  void awaitHandedOver() throws InterruptedException {
    for (Thread t : threads) {
      t.join();
    }
  }

  /**
   * Sends what is batched and waits until every publish future completed: published = acked +
   * errors.
   */
  @Override
  public void close() throws InterruptedException {
    stopping = true;
    for (Thread t : threads) {
      t.join();
    }
    publisher.shutdown();
    publisher.awaitTermination(2, TimeUnit.MINUTES);
  }
}
