package dev.ingestbench.pubsub;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.cloud.pubsub.v1.stub.SubscriberStub;
import dev.ingestbench.emulator.PubsubEmulator;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The local Pub/Sub keeps what no subscriber has taken for as long as it is told: pstest's own 10
 * minutes, fixed in its code, would lose a slow drain's backlog and have the verifier call it the
 * pipeline's loss. The project's build of pstest makes it a flag; shown here with a short one.
 */
@Tag("e2e")
// The first start may build pstest with go, which may take up to 10 minutes.
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class PstestRetentionTest {

  @Test
  void aMessageOutlivesAShortRetentionOnlyWhenTheRetentionIsLonger() throws Exception {
    try (PubsubEmulator shortLived = PubsubEmulator.start(Duration.ofSeconds(1))) {
      assertEquals(0, publishWaitAndPull(shortLived.hostAndPort()), "expired after 1 s");
    }
    try (PubsubEmulator kept = PubsubEmulator.start()) {
      assertEquals(1, publishWaitAndPull(kept.hostAndPort()), "kept: the default is a week");
    }
  }

  /** Publishes one message, waits past a second, and counts what a pull still finds. */
  private static int publishWaitAndPull(String host) throws Exception {
    String topic = "projects/p/topics/t";
    String subscription = "projects/p/subscriptions/s";
    PubsubAdmin.ensureTopicAndSubscriptions(host, topic, List.of(subscription));
    try (PubsubChannels channels = PubsubChannels.forEmulatorHost(host)) {
      PstestClients.publishOne(channels, topic);
      Thread.sleep(2_500);
      try (SubscriberStub stub = PstestClients.subscriber(channels)) {
        return PstestClients.pull(stub, subscription).getReceivedMessagesCount();
      }
    }
  }
}
