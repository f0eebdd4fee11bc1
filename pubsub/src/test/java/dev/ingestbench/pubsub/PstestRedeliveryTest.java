package dev.ingestbench.pubsub;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.cloud.pubsub.v1.stub.SubscriberStub;
import com.google.pubsub.v1.ModifyAckDeadlineRequest;
import com.google.pubsub.v1.PullResponse;
import dev.ingestbench.emulator.PubsubEmulator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The project's pstest sweeps a subscription's messages at most once a second rather than on every
 * Pull (emulator's PstestPatch): a message whose ack deadline passed must still come back, at most
 * about a second late, and never before its deadline.
 */
@Tag("e2e")
// The first start may build pstest with go, which may take up to 10 minutes.
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class PstestRedeliveryTest {

  @Test
  void aMessageNotAckedComesBackAfterItsDeadlineAndNotBefore() throws Exception {
    try (PubsubEmulator emulator = PubsubEmulator.start()) {
      String host = emulator.hostAndPort();
      String topic = "projects/p/topics/t";
      String subscription = "projects/p/subscriptions/s";
      PubsubAdmin.ensureTopicAndSubscriptions(host, topic, List.of(subscription));
      try (PubsubChannels channels = PubsubChannels.forEmulatorHost(host);
          SubscriberStub stub = PstestClients.subscriber(channels)) {
        PstestClients.publishOne(channels, topic);

        PullResponse first = PstestClients.pull(stub, subscription);
        assertEquals(1, first.getReceivedMessagesCount(), "delivered once");
        // Taken before the call: the server's deadline is at most this late.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        stub.modifyAckDeadlineCallable()
            .call(
                ModifyAckDeadlineRequest.newBuilder()
                    .setSubscription(subscription)
                    .addAckIds(first.getReceivedMessages(0).getAckId())
                    .setAckDeadlineSeconds(2)
                    .build());
        assertEquals(
            0,
            PstestClients.pull(stub, subscription).getReceivedMessagesCount(),
            "held: not acked yet");

        long again = -1;
        while (System.nanoTime() - deadline < TimeUnit.SECONDS.toNanos(10)) {
          if (PstestClients.pull(stub, subscription).getReceivedMessagesCount() == 1) {
            again = System.nanoTime();
            break;
          }
          Thread.sleep(100);
        }
        assertTrue(again > 0, "delivered again after its ack deadline");
        assertTrue(again >= deadline, "not before its deadline");
        assertTrue(
            again - deadline < TimeUnit.MILLISECONDS.toNanos(2_500),
            "at most a sweep (a second) late, with room for a busy machine: "
                + TimeUnit.NANOSECONDS.toMillis(again - deadline)
                + " ms");
      }
    }
  }
}
