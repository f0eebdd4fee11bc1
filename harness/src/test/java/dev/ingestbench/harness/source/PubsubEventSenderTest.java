package dev.ingestbench.harness.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ingestbench.emulator.PubsubEmulator;
import dev.ingestbench.events.TaxiRideGenerator;
import dev.ingestbench.pubsub.PublishOutcomes;
import dev.ingestbench.pubsub.PubsubAdmin;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Tag("e2e")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class PubsubEventSenderTest {
  private static final String TOPIC = "projects/ingestbench-local/topics/sender-test";

  @Test
  void everyMessageIsAcknowledgedOnce() throws Exception {
    try (PubsubEmulator emulator = PubsubEmulator.start()) {
      PubsubAdmin.ensureTopicAndSubscriptions(emulator.hostAndPort(), TOPIC, List.of());
      PublishOutcomes outcomes = new PublishOutcomes();
      TaxiRideGenerator generator = new TaxiRideGenerator(1, 500);
      try (PubsubEventSender sender = new PubsubEventSender(emulator.hostAndPort(), TOPIC)) {
        for (long i = 0; i < 5_000; i++) {
          sender.send(i, generator.message(i), System.currentTimeMillis(), outcomes);
        }
        sender.flush();
      }
      assertEquals(5_000, outcomes.acknowledged());
      assertEquals(0, outcomes.failed());
    }
  }

  /**
   * The emulator died with messages outstanding: closing returns within its bound (the client alone
   * would retry them for minutes), and what was not acknowledged is not counted as such.
   */
  @Test
  void closingAfterTheServerDiedDoesNotWaitForItsRetries() throws Exception {
    PublishOutcomes outcomes = new PublishOutcomes();
    TaxiRideGenerator generator = new TaxiRideGenerator(1, 500);
    PubsubEventSender sender;
    long sent = 0;
    try (PubsubEmulator emulator = PubsubEmulator.start()) {
      PubsubAdmin.ensureTopicAndSubscriptions(emulator.hostAndPort(), TOPIC, List.of());
      sender = new PubsubEventSender(emulator.hostAndPort(), TOPIC);
      sender.send(sent, generator.message(sent++), System.currentTimeMillis(), outcomes);
      sender.flush();
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (!outcomes.allAnswered(sent) && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertEquals(1, outcomes.acknowledged(), "the server took the first message");
    }
    // The server is gone: these are retried by the client while it lives.
    for (int i = 0; i < 100; i++) {
      sender.send(sent, generator.message(sent++), System.currentTimeMillis(), outcomes);
    }
    sender.flush();
    long start = System.nanoTime();
    sender.close();
    long tookMs = (System.nanoTime() - start) / 1_000_000;

    assertTrue(
        tookMs < PubsubEventSender.SHUTDOWN_MAX.toMillis() + 5_000, "close took " + tookMs + " ms");
    assertEquals(1, outcomes.acknowledged());
  }
}
