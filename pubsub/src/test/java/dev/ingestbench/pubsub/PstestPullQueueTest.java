package dev.ingestbench.pubsub;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.cloud.pubsub.v1.stub.SubscriberStub;
import com.google.pubsub.v1.ModifyAckDeadlineRequest;
import com.google.pubsub.v1.PullResponse;
import com.google.pubsub.v1.ReceivedMessage;
import dev.ingestbench.emulator.PubsubEmulator;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The project's pstest takes what a Pull returns from a queue of the messages that became available
 * (emulator's PstestPatch), not from a walk over every message the subscription holds: the oldest
 * first, each once while it is held, and a nacked one again. pstest's own walk returns them in
 * whatever order its map has.
 */
@Tag("e2e")
// The first start may build pstest with go, which may take up to 10 minutes.
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class PstestPullQueueTest {
  private static final int MESSAGES = 35;

  @Test
  void pullReturnsTheOldestFirstEachOnceAndANackedMessageAgain() throws Exception {
    try (PubsubEmulator emulator = PubsubEmulator.start()) {
      String host = emulator.hostAndPort();
      String topic = "projects/p/topics/t";
      String subscription = "projects/p/subscriptions/s";
      PubsubAdmin.ensureTopicAndSubscriptions(host, topic, List.of(subscription));
      try (PubsubChannels channels = PubsubChannels.forEmulatorHost(host);
          SubscriberStub stub = PstestClients.subscriber(channels)) {
        PstestClients.publishInOrder(channels, topic, MESSAGES);

        List<ReceivedMessage> got = new ArrayList<>();
        PullResponse r;
        while ((r = PstestClients.pull(stub, subscription)).getReceivedMessagesCount() > 0) {
          got.addAll(r.getReceivedMessagesList());
        }
        assertEquals(
            IntStream.range(0, MESSAGES).mapToObj(Integer::toString).toList(),
            got.stream().map(m -> m.getMessage().getData().toStringUtf8()).toList(),
            "every message once, in the order published");

        stub.modifyAckDeadlineCallable()
            .call(
                ModifyAckDeadlineRequest.newBuilder()
                    .setSubscription(subscription)
                    .addAckIds(got.get(4).getAckId())
                    .setAckDeadlineSeconds(0)
                    .build());
        PullResponse again = PstestClients.pull(stub, subscription);
        assertEquals(
            List.of("4"),
            again.getReceivedMessagesList().stream()
                .map(m -> m.getMessage().getData().toStringUtf8())
                .toList(),
            "the nacked message alone comes back");
        assertEquals(
            0, PstestClients.pull(stub, subscription).getReceivedMessagesCount(), "then none");
      }
    }
  }
}
