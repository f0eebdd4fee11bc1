package dev.ingestbench.harness.source;

import com.google.cloud.pubsub.v1.stub.GrpcSubscriberStub;
import com.google.cloud.pubsub.v1.stub.SubscriberStub;
import com.google.cloud.pubsub.v1.stub.SubscriberStubSettings;
import com.google.pubsub.v1.ModifyAckDeadlineRequest;
import com.google.pubsub.v1.PullRequest;
import com.google.pubsub.v1.PullResponse;
import com.google.pubsub.v1.ReceivedMessage;
import dev.ingestbench.events.MessageAttributes;
import dev.ingestbench.pubsub.PubsubChannels;
import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Reads what is still in a Pub/Sub subscription after its job stopped, by pulling every message and
 * handing each back at once (ack deadline 0), so the subscription holds the same messages
 * afterwards: the event indexes found are what the job left, counted rather than assumed.
 */
public final class SubscriptionBacklog {
  private static final int PULL_BATCH = 1_000;

  /** Empty pulls in a row before the subscription counts as read to its end. */
  private static final int EMPTY_PULLS = 3;

  /**
   * How long each pulled message is held while the rest are pulled: the subscription's own deadline
   * (10 s on the emulator) is shorter than reading a deep backlog takes, and a message back before
   * the end would keep the pulls from ever coming back empty.
   */
  private static final int HOLD_SECONDS = 600;

  private SubscriptionBacklog() {}

  /**
   * The event indexes of the messages in {@code subscriptionPath}, on the emulator at {@code host}.
   */
  public static BitSet read(String host, String subscriptionPath) throws IOException {
    try {
      return pullAll(host, subscriptionPath);
    } catch (RuntimeException e) {
      // The client's failures (ApiException, StatusRuntimeException) are unchecked: name the
      // subscription.
      throw new IOException("reading " + subscriptionPath + " failed: " + e.getMessage(), e);
    }
  }

  private static BitSet pullAll(String host, String subscriptionPath) throws IOException {
    BitSet indexes = new BitSet();
    try (PubsubChannels channels = PubsubChannels.forEmulatorHost(host);
        SubscriberStub stub =
            GrpcSubscriberStub.create(
                SubscriberStubSettings.newBuilder()
                    .setTransportChannelProvider(channels.channelProvider())
                    .setCredentialsProvider(channels.credentialsProvider())
                    .build())) {
      // Pulled messages are held out (HOLD_SECONDS) while the rest are pulled, so no message comes
      // twice; only when a few pulls in a row bring nothing are they all handed back.
      List<String> ackIds = new ArrayList<>();
      int empty = 0;
      while (empty < EMPTY_PULLS) {
        PullResponse pulled =
            stub.pullCallable()
                .call(
                    PullRequest.newBuilder()
                        .setSubscription(subscriptionPath)
                        .setMaxMessages(PULL_BATCH)
                        .setReturnImmediately(true)
                        .build());
        List<String> batch = new ArrayList<>();
        for (ReceivedMessage m : pulled.getReceivedMessagesList()) {
          batch.add(m.getAckId());
          String index = m.getMessage().getAttributesOrDefault(MessageAttributes.EVENT_INDEX, "");
          if (index.matches("\\d{1,10}") && Long.parseLong(index) <= Integer.MAX_VALUE) {
            indexes.set(Integer.parseInt(index));
          }
        }
        if (!batch.isEmpty()) {
          setDeadline(stub, subscriptionPath, batch, HOLD_SECONDS);
          ackIds.addAll(batch);
        }
        empty = pulled.getReceivedMessagesCount() == 0 ? empty + 1 : 0;
      }
      for (int from = 0; from < ackIds.size(); from += PULL_BATCH) {
        setDeadline(
            stub,
            subscriptionPath,
            ackIds.subList(from, Math.min(ackIds.size(), from + PULL_BATCH)),
            0);
      }
    }
    return indexes;
  }

  private static void setDeadline(
      SubscriberStub stub, String subscriptionPath, List<String> ackIds, int seconds) {
    stub.modifyAckDeadlineCallable()
        .call(
            ModifyAckDeadlineRequest.newBuilder()
                .setSubscription(subscriptionPath)
                .addAllAckIds(ackIds)
                .setAckDeadlineSeconds(seconds)
                .build());
  }
}
