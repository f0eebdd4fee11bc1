package dev.ingestbench.pubsubload;

import com.google.api.gax.batching.FlowControlSettings;
import com.google.api.gax.core.InstantiatingExecutorProvider;
import com.google.cloud.pubsub.v1.MessageReceiver;
import com.google.cloud.pubsub.v1.Subscriber;
import com.google.cloud.pubsub.v1.stub.GrpcSubscriberStub;
import com.google.cloud.pubsub.v1.stub.SubscriberStub;
import com.google.cloud.pubsub.v1.stub.SubscriberStubSettings;
import com.google.common.util.concurrent.MoreExecutors;
import com.google.pubsub.v1.AcknowledgeRequest;
import com.google.pubsub.v1.ProjectSubscriptionName;
import com.google.pubsub.v1.PubsubMessage;
import com.google.pubsub.v1.PullRequest;
import com.google.pubsub.v1.PullResponse;
import com.google.pubsub.v1.ReceivedMessage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The subscriber side: streaming pull through the client's {@link Subscriber} (parallel pull count,
 * flow control, executor threads), or unary Pull requests of {@code pullBatch} messages from {@code
 * subscriberThreads} threads. Each message is counted, checked against the sequence numbers seen,
 * timed end to end from its publish-time attribute, and acknowledged.
 */
final class SubscriberLoad implements AutoCloseable {
  private final LoadSettings settings;
  private final PubsubTarget target;
  private final LoadCounters counters;
  private final String subscriptionPath;
  private Subscriber subscriber;
  private SubscriberStub stub;
  private final List<Thread> pullers = new ArrayList<>();
  private volatile boolean stopping;

  SubscriberLoad(LoadSettings settings, PubsubTarget target, LoadCounters counters) {
    this.settings = settings;
    this.target = target;
    this.counters = counters;
    this.subscriptionPath = target.subscriptionPath(settings.subscription());
  }

  void start() throws IOException {
    if (settings.pull() == LoadSettings.PullMode.STREAMING) {
      startStreaming();
    } else {
      startUnary();
    }
  }

  private void startStreaming() {
    MessageReceiver receiver =
        (message, consumer) -> {
          onMessage(message);
          consumer.ack();
        };
    FlowControlSettings.Builder flow =
        FlowControlSettings.newBuilder()
            .setMaxOutstandingRequestBytes(settings.subscriberMaxOutstandingBytes());
    if (settings.subscriberMaxOutstandingMessages() > 0) {
      flow.setMaxOutstandingElementCount(settings.subscriberMaxOutstandingMessages());
    } else {
      flow.setMaxOutstandingElementCount(Long.MAX_VALUE);
    }
    Subscriber.Builder builder =
        Subscriber.newBuilder(ProjectSubscriptionName.parse(subscriptionPath), receiver)
            .setParallelPullCount(settings.parallelPullCount())
            .setFlowControlSettings(flow.build())
            .setExecutorProvider(
                InstantiatingExecutorProvider.newBuilder()
                    .setExecutorThreadCount(settings.subscriberThreads())
                    .build());
    if (target.isEmulator()) {
      builder
          .setChannelProvider(target.channelProvider())
          .setCredentialsProvider(target.credentialsProvider());
    }
    subscriber = builder.build();
    subscriber.addListener(
        new Subscriber.Listener() {
          @Override
          public void failed(Subscriber.State from, Throwable failure) {
            counters.subscriberErrors.increment();
            if (counters.firstSubscriberError == null) {
              counters.firstSubscriberError = failure;
            }
          }
        },
        MoreExecutors.directExecutor());
    subscriber.startAsync().awaitRunning();
  }

  private void startUnary() throws IOException {
    SubscriberStubSettings.Builder stubSettings = SubscriberStubSettings.newBuilder();
    if (target.isEmulator()) {
      stubSettings
          .setTransportChannelProvider(target.channelProvider())
          .setCredentialsProvider(target.credentialsProvider());
    }
    stub = GrpcSubscriberStub.create(stubSettings.build());
    for (int i = 0; i < settings.subscriberThreads(); i++) {
      Thread t = new Thread(this::pullLoop, "puller-" + i);
      t.setDaemon(true);
      pullers.add(t);
      t.start();
    }
  }

  private void pullLoop() {
    PullRequest request =
        PullRequest.newBuilder()
            .setSubscription(subscriptionPath)
            .setMaxMessages(settings.pullBatch())
            .build();
    while (!stopping) {
      try {
        PullResponse response = stub.pullCallable().call(request);
        if (response.getReceivedMessagesCount() == 0) {
          continue;
        }
        AcknowledgeRequest.Builder ack =
            AcknowledgeRequest.newBuilder().setSubscription(subscriptionPath);
        for (ReceivedMessage m : response.getReceivedMessagesList()) {
          onMessage(m.getMessage());
          ack.addAckIds(m.getAckId());
        }
        stub.acknowledgeCallable().call(ack.build());
      } catch (RuntimeException e) {
        if (stopping) {
          return;
        }
        counters.subscriberErrors.increment();
        if (counters.firstSubscriberError == null) {
          counters.firstSubscriberError = e;
        }
      }
    }
  }

  private void onMessage(PubsubMessage message) {
    counters.received.increment();
    counters.receivedBytes.add(message.getData().size());
    long seq = LoadMessages.sequenceOf(message, counters.run);
    if (seq < 0) {
      counters.foreign.increment();
      return;
    }
    counters.receivedSequences.mark(seq);
    long micros = LoadMessages.endToEndMicros(message);
    if (micros >= 0) {
      counters.endToEndLatency.recordValue(Math.max(1, micros));
    }
  }

  @Override
  public void close() throws InterruptedException {
    stopping = true;
    if (subscriber != null) {
      subscriber.stopAsync();
      try {
        subscriber.awaitTerminated(30, TimeUnit.SECONDS);
      } catch (TimeoutException | IllegalStateException e) {
        // a failed subscriber is reported through the counters; nothing more to stop
      }
    }
    for (Thread t : pullers) {
      t.join(TimeUnit.SECONDS.toMillis(30));
    }
    if (stub != null) {
      stub.shutdownNow();
      stub.awaitTermination(10, TimeUnit.SECONDS);
    }
  }
}
